import type { ArchiveFormat } from "@agent-tools/sdk/archive";
import type { ToolCapabilities } from "@agent-tools/sdk/capabilities";
import { entrySizeProblem, storageProblems, storedShape } from "../entry/entry-limits.js";
import { entryFromSpec, type ToolEntry } from "../entry/tool-entry.js";
import { HttpProblem } from "../http-problem.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";
import { readBundleFiles } from "./bundle-files.js";
import { resolveBundleLimits, type BundleLimitOverrides, type BundleLimits } from "./bundle-limits.js";
import { checkInputSchema } from "./input-schema.js";
import { inspectToolZip } from "./inspect-tool-zip.js";
import { parseSpec } from "./parse-spec.js";
import { capabilitiesOf } from "./tool-capabilities.js";
import { checkSpecSchema } from "./spec-schema-check.js";
import { toolIdOf } from "./tool-id.js";
import { versionOf } from "./tool-version.js";

export interface ValidatedBundle {
  /** The 19 original fields, defaults filled, unknown keys dropped, `tool_man_page_doc` = tool.md. */
  entry: ToolEntry;
  toolId: string;
  /** `tool_metadata.version` as semver; `0.0.0` when absent. */
  version: string;
  /** The tool archive exactly as uploaded (stored byte-identical). */
  toolZip: Uint8Array;
  archiveFormat: ArchiveFormat;
  /** `tool_capabilities`, validated and normalised; undefined when the spec declares none. */
  capabilities: ToolCapabilities | undefined;
}

/**
 * Everything the registry checks in an uploaded bundle before storing anything (DESIGN.md,
 * "Upload pipeline"): bundle zip within limits → exactly spec.json, tool.zip, tool.md at its
 * root → spec is a JSON object → tool_id → field types → version → capability manifest → input JSON Schema →
 * the whole spec.json schema → entry
 * size → tool.zip guards and runtime layout. Each failure is a HttpProblem (400 malformed
 * bundle, 422 invalid content, 413 over a limit) whose detail says what to fix.
 */
export function validateBundle(bundleBytes: Uint8Array, limits: BundleLimitOverrides = {}): ValidatedBundle {
  const resolved = resolveBundleLimits(limits);
  const files = readBundleFiles(bundleBytes, resolved);
  const spec = parseSpec(files.spec);
  checkStorable(spec);
  const toolId = toolIdOf(spec);
  // The registry owns these two (seed: "leave them out"), so whatever spec.json says is replaced.
  const entry = entryFromSpec({ ...spec, tool_man_page_doc: manPage(files.toolMd), tool_source_code_link: "" });
  const version = versionOf(spec);
  const capabilities = capabilitiesOf(spec);
  checkInputSchema(entry.tool_api_spec);
  checkSpecSchema(spec);
  checkEntrySize(entry, resolved);
  const archiveFormat = inspectToolZip(files.toolZip, entry.tool_runtime_type, resolved.toolArchive, entry.tool_type);
  return { entry, toolId, version, toolZip: files.toolZip, archiveFormat, capabilities };
}

function manPage(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpProblem(422, PROCESSING_FAILED, "tool.md is not UTF-8 text. Save the documentation as UTF-8 Markdown.");
  }
}

/** Before anything walks the spec recursively (schema compilation, storage): what the database cannot store (entry-limits.ts). */
function checkStorable(spec: Record<string, unknown>): void {
  const problems = storageProblems(spec);
  if (problems.length > 0) {
    throw new HttpProblem(
      422,
      PROCESSING_FAILED,
      `spec.json holds values the registry cannot store: ${problems.join("; ")}. Change these values, or move such data into a file in code/.`,
    );
  }
}

function checkEntrySize(entry: ToolEntry, limits: BundleLimits): void {
  const bytes = Math.max(Buffer.byteLength(JSON.stringify(entry)), storedShape(entry).bytes);
  if (bytes > limits.maxEntryJsonBytes) {
    const problem = entrySizeProblem(entry, limits.maxEntryJsonBytes) ?? "";
    throw new HttpProblem(
      413,
      PROCESSING_FAILED,
      `spec.json and tool.md together make a ${bytes}-byte entry; entries are limited to ${limits.maxEntryJsonBytes} bytes (one database item each): ${problem}. Shorten tool.md or move large data from spec.json into code/.`,
    );
  }
}
