import { createHash } from "node:crypto";
import { canonicalize } from "json-canonicalize";
import type { PermissionEngine } from "../permission/permission-engine.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { describeRecord, inputSchemaOf } from "../registry-tool/registry-tool-record.js";
import { RUNTIME_FIELDS } from "../tool-spec/runtime-fields.js";
import { toolNameFromId } from "../tool-spec/tool-name.js";
import { readToolCapabilities } from "../sandbox/capabilities/tool-capabilities.js";
import { definitionChanges } from "./definition-changes.js";
import { decideTrust, type TrustAsker } from "./trust-asks.js";
import { TrustError } from "./trust-errors.js";
import type { TrustStore } from "./trust-store.js";

/** A definition that differs from the approved one: the next call asks before it runs. */
export interface DefinitionChange {
  toolId: string;
  version: string;
  digest: string;
  definition: Record<string, unknown>;
  changes: string[];
}

/**
 * What a user approves when they let an agent use a registry tool: what the LLM is shown (name,
 * description with tags, input schema, as `registryTool` presents them), what the sandbox may
 * grant (the capability manifest), who publishes it (`owner`) and whether its signature was
 * verified (`signed`), and the configuration its code runs with (`configuration`: the fields of
 * `RUNTIME_FIELDS`, `tool_metadata` without the `version` every release changes). A "rug pull"
 * changes one of these after approval; a registry that hands a tool to another publisher (who then
 * signs it with their own key, pinned on first use), or drops the signature of a signed tool,
 * changes `publisher` and `signed`.
 */
export function approvableDefinition(entry: ToolRecord): Record<string, unknown> {
  let capabilities: unknown;
  try {
    capabilities = readToolCapabilities(entry.tool_capabilities);
  } catch {
    capabilities = entry.tool_capabilities ?? null; // shown as sent; the sandbox refuses to run it anyway
  }
  const publisher = typeof entry.owner === "string" ? entry.owner : null;
  // `admit` has verified any signature before this runs, so present means verified.
  const signed = entry.signature !== undefined && entry.signature !== null;
  return {
    name: toolNameFromId(entry.tool_id),
    description: describeRecord(entry),
    input_schema: inputSchemaOf(entry),
    capabilities,
    publisher,
    signed,
    configuration: runtimeConfiguration(entry),
  };
}

/** What the tool's code runs with beyond its input (docs/sdk.md#pinned-definitions), as the registry sent it. */
function runtimeConfiguration(entry: ToolRecord): Record<string, unknown> {
  const configuration: Record<string, unknown> = {};
  for (const { field } of RUNTIME_FIELDS) configuration[field] = entry[field] ?? {};
  const metadata = configuration.tool_metadata;
  if (typeof metadata === "object" && metadata !== null && !Array.isArray(metadata)) {
    const { version: _version, ...rest } = metadata as Record<string, unknown>;
    configuration.tool_metadata = rest;
  }
  return configuration;
}

/**
 * Pinned tool definitions, per registry and tool id (`TrustStore`): the first use of a tool
 * records what it is; a later version (or an edit) that changes it is a `DefinitionChange`, asked
 * through the permission engine as `ToolDefinition(<tool id>)` before its first call, with the
 * changes listed. Accepting remembers the new digest; refusing fails the call, and the next call
 * asks again.
 */
export class DefinitionPins {
  constructor(private readonly options: { store: TrustStore; engine: PermissionEngine; ask: TrustAsker | undefined }) {}

  /** Records a first use; a change from the approved definition is returned for `approve` to ask about. */
  async check(entry: ToolRecord, version: string): Promise<DefinitionChange | undefined> {
    const definition = approvableDefinition(entry);
    const digest = digestOf(definition);
    const approved = await this.options.store.approvedDefinition(entry.tool_id);
    if (approved?.digest === digest) return undefined;
    if (approved === undefined || onlyHarmlessDifference(approved.definition, definition)) {
      await this.options.store.approveDefinition(entry.tool_id, { digest, version, definition });
      return undefined;
    }
    return { toolId: entry.tool_id, version, digest, definition, changes: definitionChanges(approved.definition, definition) };
  }

  async approve(change: DefinitionChange): Promise<void> {
    const message =
      `Tool "${change.toolId}" version ${change.version} is not what you approved: its ${changedParts(change.changes)} ` +
      `changed. Accept it only if you expected this change:\n${change.changes.join("\n")}`;
    const accepted = await decideTrust(this.options.engine, this.options.ask, {
      kind: "tool-definition",
      toolId: change.toolId,
      version: change.version,
      changes: change.changes,
      message,
    });
    if (!accepted) {
      throw new TrustError(
        "DEFINITION_CHANGE_REFUSED",
        `${message}\nIt was not accepted (no onTrustRequest answer, a deny rule, or a mode where nobody answers). ` +
          `Answer through onTrustRequest to accept it, or pin the version you approved (add("${change.toolId}@<version>")).`,
        { toolId: change.toolId },
      );
    }
    await this.options.store.approveDefinition(change.toolId, {
      digest: change.digest,
      version: change.version,
      definition: change.definition,
    });
  }
}

function digestOf(definition: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalize(definition), "utf8").digest("hex");
}

/**
 * Differences that are no reason to ask, with everything else equal: a publisher that starts
 * signing (one that stops is asked about), and a pin an SDK recorded before the configuration was
 * part of the definition (it takes the configuration as it is now, once).
 */
function onlyHarmlessDifference(before: Record<string, unknown>, now: Record<string, unknown>): boolean {
  const { signed: wasSigned, configuration: approvedConfiguration, ...rest } = before;
  const { signed: isSigned, configuration, ...current } = now;
  if (digestOf(rest) !== digestOf(current)) return false;
  const signing = wasSigned === isSigned || (wasSigned !== true && isSigned === true);
  const configured =
    approvedConfiguration === undefined || digestOf({ configuration: approvedConfiguration }) === digestOf({ configuration });
  return signing && configured;
}

function changedParts(changes: string[]): string {
  const parts = ["name", "description", "input_schema", "capabilities", "publisher", "signed", "configuration"].filter((part) =>
    changes.some((line) => line.slice(2).startsWith(part)),
  );
  return parts.map((part) => (part === "signed" ? "signature" : part.replace("_", " "))).join(", ") || "definition";
}
