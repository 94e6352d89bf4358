import { createHash } from "node:crypto";
import { canonicalize } from "json-canonicalize";
import type { PermissionEngine } from "../permission/permission-engine.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { describeRecord, inputSchemaOf } from "../registry-tool/registry-tool-record.js";
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
 * verified (`signed`). A "rug pull" changes one of these after approval; a registry that hands a
 * tool to another publisher (who then signs it with their own key, pinned on first use), or drops
 * the signature of a signed tool, changes the last two.
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
  };
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
    if (approved === undefined || onlyStartedSigning(approved.definition, definition)) {
      await this.options.store.approveDefinition(entry.tool_id, { digest, version, definition });
      return undefined;
    }
    return { toolId: entry.tool_id, version, digest, definition, changes: definitionChanges(approved.definition, definition) };
  }

  async approve(change: DefinitionChange): Promise<void> {
    const message = `Tool "${change.toolId}" version ${change.version} is not what you approved: its ${changedParts(change.changes)} changed. Accept it only if you expected this change:\n${change.changes.join("\n")}`;
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
        `${message}\nIt was not accepted (no onTrustRequest answer, a deny rule, or a mode where nobody answers). Answer through onTrustRequest to accept it, or pin the version you approved (add("${change.toolId}@<version>")).`,
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

/** A publisher that starts signing an unchanged tool is no reason to ask; one that stops is. */
function onlyStartedSigning(before: Record<string, unknown>, now: Record<string, unknown>): boolean {
  const { signed: wasSigned, ...rest } = before;
  const { signed: isSigned, ...current } = now;
  return wasSigned !== true && isSigned === true && digestOf(rest) === digestOf(current);
}

function changedParts(changes: string[]): string {
  const parts = ["name", "description", "input_schema", "capabilities", "publisher", "signed"].filter((part) =>
    changes.some((line) => line.slice(2).startsWith(part)),
  );
  return parts.map((part) => (part === "signed" ? "signature" : part.replace("_", " "))).join(", ") || "definition";
}
