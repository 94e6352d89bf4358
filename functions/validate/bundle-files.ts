import { detectArchiveFormat, readArchive, type VettedEntry } from "@agent-tools/sdk/archive";
import { HttpProblem } from "../http-problem.js";
import { archiveRejection, PROCESSING_FAILED } from "./archive-rejection.js";
import { bundleArchiveLimits, type BundleLimits } from "./bundle-limits.js";

/** The files of a bundle, found at the root of its zip. */
export interface BundleFiles {
  spec: Uint8Array;
  toolZip: Uint8Array;
  toolMd: Uint8Array;
  /**
   * `tool-<os>-<arch>[-<libc>].zip` beside tool.zip: the archives of a binary tool's further platforms
   * (docs/authoring.md#platforms), by file name.
   */
  platformArchives: Map<string, Uint8Array>;
}

const REQUIRED = ["spec.json", "tool.zip", "tool.md"] as const;
/**
 * A further platform's archive: `tool-` + a platform key (`platformArchiveName`) + `.zip`; spec.json's
 * `tool_platforms` decides which must be there.
 */
const PLATFORM_ARCHIVE = /^tool-[a-z0-9]+-[a-z0-9]+(-[a-z]+)?\.zip$/;
const HOW_TO_BUILD = "Build it with: zip bundle.zip spec.json tool.zip tool.md";

/**
 * Reads the bundle zip under size and ratio limits and returns exactly `spec.json`, `tool.zip`
 * and `tool.md` from its root. The layout is judged on names alone, before anything is inflated.
 */
export function readBundleFiles(bundle: Uint8Array, limits: BundleLimits): BundleFiles {
  if (bundle.length > limits.maxBundleBytes) {
    throw new HttpProblem(
      413,
      PROCESSING_FAILED,
      `The bundle is ${bundle.length} bytes; at most ${limits.maxBundleBytes} ` +
        `are accepted. Make tool.zip smaller (no caches, no build outputs).`,
    );
  }
  const format = detectArchiveFormat(bundle);
  if (format !== "zip") {
    const what = format === undefined ? "not a zip" : `a ${format}, not a zip (only the tool.zip inside may be a tar.gz)`;
    throw invalidBundle(`The uploaded file is ${what}. ${HOW_TO_BUILD}`);
  }
  let entries: ReturnType<typeof readArchive>["entries"];
  try {
    entries = readArchive(bundle, bundleArchiveLimits(limits), checkBundleLayout).entries;
  } catch (error) {
    throw archiveRejection(error, "The bundle", 400);
  }
  const data = (name: string) => entries.find((entry) => entry.path === name)!.data;
  const platformArchives = new Map(entries.filter((entry) => PLATFORM_ARCHIVE.test(entry.path)).map((entry) => [entry.path, entry.data]));
  return { spec: data("spec.json"), toolZip: data("tool.zip"), toolMd: data("tool.md"), platformArchives };
}

function checkBundleLayout(entries: VettedEntry[]): void {
  const files = entries.filter((entry) => entry.type === "file").map((entry) => entry.path);
  const atRoot = REQUIRED.filter((name) => files.includes(name));
  if (atRoot.length === 0) {
    const folder = nestingFolder(files);
    if (folder !== undefined) {
      throw invalidBundle(
        `spec.json, tool.zip and tool.md are inside the folder "${folder}/" of the bundle, but must be at its ` +
          `root. Zip the files, not their folder: cd ${folder} && zip ../bundle.zip spec.json tool.zip tool.md`,
      );
    }
  }
  const missing = REQUIRED.filter((name) => !atRoot.includes(name));
  if (missing.length > 0) {
    const holds = entries.length === 0 ? "nothing" : list(entries.map(describeEntry));
    throw invalidBundle(
      `The bundle has no ${list(missing)} at its root (it holds ${holds}). A bundle ` +
        `holds exactly spec.json, tool.zip and tool.md at its root. ${HOW_TO_BUILD}`,
    );
  }
  const extra = entries.filter(
    (entry) => !((REQUIRED as readonly string[]).includes(entry.path) || PLATFORM_ARCHIVE.test(entry.path)) || entry.type !== "file",
  );
  if (extra.length > 0) {
    throw invalidBundle(
      `The bundle holds unexpected entries: ${list(extra.map(describeEntry))}. A bundle holds ` +
        `exactly spec.json, tool.zip and tool.md (and a binary tool's further platforms as ` +
        `tool-<os>-<arch>.zip); put the tool's other files in tool.zip's code/ folder. ${HOW_TO_BUILD}`,
    );
  }
}

export function invalidBundle(detail: string): HttpProblem {
  return new HttpProblem(400, PROCESSING_FAILED, detail, {}, "INVALID_BUNDLE");
}

/** The folder holding the bundle's files, when the author zipped the tool folder instead of its files. */
function nestingFolder(files: string[]): string | undefined {
  return files.map((file) => /^(.+)\/(spec\.json|tool\.zip|tool\.md)$/.exec(file)?.[1]).find((folder) => folder !== undefined);
}

function describeEntry(entry: VettedEntry): string {
  return `${entry.path}${entry.type === "directory" ? "/" : entry.type === "symlink" ? " (symlink)" : ""}`;
}

function list(items: readonly string[]): string {
  const shown = items.slice(0, 8).join(", ");
  return items.length > 8 ? `${shown} and ${items.length - 8} more` : shown;
}
