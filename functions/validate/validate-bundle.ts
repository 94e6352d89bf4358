import type { ArchiveFormat } from "@agent-tools/sdk/archive";
import { readToolCapabilities, type ToolCapabilities } from "@agent-tools/sdk/capabilities";
import { describeSpecProblems, platformArchiveName, specProblems, type ToolPlatform } from "@agent-tools/sdk/tool-spec";
import { entrySizeProblem, storageProblems, storedShape } from "../entry/entry-limits.js";
import { entryFromSpec, type ToolEntry } from "../entry/tool-entry.js";
import { HttpProblem } from "../http-problem.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";
import { invalidBundle, readBundleFiles, type BundleFiles } from "./bundle-files.js";
import { resolveBundleLimits, type BundleLimitOverrides, type BundleLimits } from "./bundle-limits.js";
import { inspectToolZip } from "./inspect-tool-zip.js";
import { parseSpec } from "./parse-spec.js";
import { versionOf } from "./tool-version.js";

/** One archive of a version: `tool.zip`, or a further platform's (docs/authoring.md#platforms). */
export interface ValidatedArchive {
  /** Its file name in the bundle. */
  name: string;
  /** The platform it is built for; undefined when the spec declares none. */
  platform: ToolPlatform | undefined;
  /** Exactly as uploaded (stored byte-identical). */
  bytes: Uint8Array;
  format: ArchiveFormat;
}

export interface ValidatedBundle {
  /** The 19 original fields, defaults filled, unknown keys dropped, `tool_man_page_doc` = tool.md. */
  entry: ToolEntry;
  toolId: string;
  /** `tool_metadata.version` as semver; `0.0.0` when absent. */
  version: string;
  /** The tool archive exactly as uploaded (stored byte-identical): `archives[0].bytes`. */
  toolZip: Uint8Array;
  archiveFormat: ArchiveFormat;
  /** Every archive, `tool.zip` first, then one per further platform in `tool_platforms` order. */
  archives: ValidatedArchive[];
  /** `tool_capabilities`, validated and normalised; undefined when the spec declares none. */
  capabilities: ToolCapabilities | undefined;
  /** `tool_platforms` as declared; undefined when the spec declares none. */
  platforms: ToolPlatform[] | undefined;
}

/**
 * Everything the registry checks in an uploaded bundle before storing anything (DESIGN.md,
 * "Upload pipeline"): bundle zip within limits → spec.json, tool.zip, tool.md (and the declared
 * platforms' archives) at its root → spec is a JSON object it can store → every rule of spec.json
 * at once (`specProblems`: id, field types, version, capability manifest, input JSON Schema,
 * platforms, the whole schema) → entry size → each archive's guards, runtime layout and
 * executable format. Each failure is a HttpProblem (400 malformed bundle, 422 invalid content,
 * 413 over a limit) whose detail says what to fix.
 */
export function validateBundle(bundleBytes: Uint8Array, limits: BundleLimitOverrides = {}): ValidatedBundle {
  const resolved = resolveBundleLimits(limits);
  const files = readBundleFiles(bundleBytes, resolved);
  const spec = parseSpec(files.spec);
  checkStorable(spec);
  const problems = specProblems(spec);
  if (problems.length > 0) throw new HttpProblem(422, PROCESSING_FAILED, describeSpecProblems(problems), {}, "INVALID_SPEC");
  // The registry owns these two (seed: "leave them out"), so whatever spec.json says is replaced.
  const entry = entryFromSpec({ ...spec, tool_man_page_doc: manPage(files.toolMd), tool_source_code_link: "" });
  const capabilities =
    spec.tool_capabilities === undefined || spec.tool_capabilities === null ? undefined : readToolCapabilities(spec.tool_capabilities);
  const platforms = Array.isArray(spec.tool_platforms)
    ? (spec.tool_platforms as ToolPlatform[]).map(({ os, arch, libc }) => ({ os, arch, ...(libc === undefined ? {} : { libc }) }))
    : undefined;
  checkEntrySize(entry, resolved);
  const archives = bundleArchives(files, platforms).map(({ name, platform, bytes }) => ({
    name,
    platform,
    bytes,
    format: inspectToolZip(bytes, { runtime: entry.tool_runtime_type, toolType: entry.tool_type, platform, name }, resolved.toolArchive),
  }));
  const [primary] = archives as [ValidatedArchive];
  return {
    entry,
    toolId: spec.tool_id as string,
    version: versionOf(spec),
    toolZip: primary.bytes,
    archiveFormat: primary.format,
    archives,
    capabilities,
    platforms,
  };
}

/** tool.zip for the first platform (or the only archive), then exactly the declared platforms' archives: none missing, none extra. */
function bundleArchives(files: BundleFiles, platforms: ToolPlatform[] | undefined): Omit<ValidatedArchive, "format">[] {
  const declared = (platforms ?? []).map((platform, index) => ({ name: platformArchiveName(platform, index), platform }));
  const missing = declared.filter(({ name }) => name !== "tool.zip" && !files.platformArchives.has(name)).map(({ name }) => name);
  const extra = [...files.platformArchives.keys()].filter((name) => !declared.some((archive) => archive.name === name));
  if (missing.length > 0 || extra.length > 0) {
    const said = [
      missing.length > 0 ? `it lacks ${missing.join(", ")}, which tool_platforms declares` : "",
      extra.length > 0 ? `it holds ${extra.join(", ")}, which tool_platforms does not declare` : "",
    ];
    throw invalidBundle(
      `The bundle does not match spec.json's tool_platforms: ${said.filter(Boolean).join("; ")}. ` +
        `tool.zip holds the first platform's build and tool-<os>-<arch>[-<libc>].zip each ` +
        `further one's; \`agent-tools pack\` builds them from platforms/<os>-<arch>[-<libc>]/code/.`,
    );
  }
  if (declared.length === 0) return [{ name: "tool.zip", platform: undefined, bytes: files.toolZip }];
  return declared.map(({ name, platform }) => ({
    name,
    platform,
    bytes: name === "tool.zip" ? files.toolZip : files.platformArchives.get(name)!,
  }));
}

function manPage(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpProblem(
      422,
      PROCESSING_FAILED,
      "tool.md is not UTF-8 text. Save the documentation as UTF-8 Markdown.",
      {},
      "INVALID_BUNDLE",
    );
  }
}

/** Before anything walks the spec recursively (schema compilation, storage): what the database cannot store (entry-limits.ts). */
function checkStorable(spec: Record<string, unknown>): void {
  const problems = storageProblems(spec);
  if (problems.length > 0) {
    throw new HttpProblem(
      422,
      PROCESSING_FAILED,
      `spec.json holds values the registry cannot store: ${problems.join("; ")}. ` +
        `Change these values, or move such data into a file in code/.`,
      {},
      "INVALID_SPEC",
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
      `spec.json and tool.md together make a ${bytes}-byte entry; entries are limited to ${limits.maxEntryJsonBytes} ` +
        `bytes (one database item each): ${problem}. Shorten tool.md or move large data from spec.json into code/.`,
    );
  }
}
