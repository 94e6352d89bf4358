import { createHash, randomUUID } from "node:crypto";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, resolve, sep } from "node:path";
import { renameIntoPlace } from "../rename-into-place.js";
import { AgentToolsError } from "../errors.js";
import type { ArchiveEntry, ToolArchive } from "./archive-entry.js";
import type { ArchiveLimits } from "./archive-limits.js";
import { readToolArchive } from "./tool-archive.js";

/** The archive's bytes are not the ones the registry published (`tool_archive_sha256`). Nothing was unpacked. */
export class ArchiveIntegrityError extends AgentToolsError {
  readonly expectedSha256: string;
  readonly actualSha256: string;

  constructor(toolId: string | undefined, expected: string, actual: string) {
    super(
      "ARCHIVE_HASH_MISMATCH",
      `The archive${toolId === undefined ? "" : ` of tool "${toolId}"`} has sha256 ` +
        `${actual}, but the registry published ${expected}; it was corrupted or tampered with ` +
        `in transit or storage, so nothing was unpacked. Retry, or re-upload the tool.`,
      toolId === undefined ? {} : { toolId },
    );
    this.expectedSha256 = expected;
    this.actualSha256 = actual;
  }
}

export interface ExtractOptions {
  /** Final folder; it appears complete or not at all (built in a temp sibling, then renamed). */
  targetDir: string;
  /** Hex sha256 the bytes must have; checked before anything is read or written. */
  expectedSha256?: string;
  limits?: Partial<ArchiveLimits>;
  toolId?: string;
}

export interface ExtractedArchive {
  sha256: string;
  archive: ToolArchive;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Verifies, checks (every guard of `readToolArchive`) and writes a tool archive to `targetDir`.
 * If another process finished the same folder first, its copy is kept and ours is discarded:
 * the content is identical by construction when folders are named by hash.
 */
export async function extractToolArchive(bytes: Uint8Array, options: ExtractOptions): Promise<ExtractedArchive> {
  const sha256 = sha256Hex(bytes);
  const expected = options.expectedSha256?.toLowerCase();
  if (expected !== undefined && expected !== sha256) throw new ArchiveIntegrityError(options.toolId, expected, sha256);
  const archive = readToolArchive(bytes, options.limits);
  const target = resolve(options.targetDir);
  const temp = `${target}.partial-${process.pid}-${randomUUID().slice(0, 8)}`;
  try {
    await writeEntries(temp, archive.entries);
    await renameIntoPlace(temp, target);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
  return { sha256, archive };
}

async function writeEntries(root: string, entries: ArchiveEntry[]): Promise<void> {
  await mkdir(root, { recursive: true, mode: 0o755 });
  // Links last: no file or folder is ever written through a link that the archive itself created.
  const ordered = [
    ...entries.filter((entry) => entry.type === "directory"),
    ...entries.filter((entry) => entry.type === "file"),
    ...entries.filter((entry) => entry.type === "symlink"),
  ];
  for (const entry of ordered) {
    const path = insideRoot(root, entry.path);
    if (entry.type === "directory") {
      await mkdir(path, { recursive: true, mode: 0o755 });
      continue;
    }
    await mkdir(dirname(path), { recursive: true, mode: 0o755 });
    if (entry.type === "symlink") await symlink(entry.linkTarget ?? "", path);
    // `wx` refuses to follow or replace anything already there; the mode keeps the executable bit.
    else await writeFile(path, entry.data, { flag: "wx", mode: fileMode(entry.mode) });
  }
}

/** Guards repeat here on the final path, so a reader bug can never turn into a write outside `root`. */
function insideRoot(root: string, entryPath: string): string {
  const path = resolve(root, entryPath);
  if (!path.startsWith(root + sep)) {
    throw new AgentToolsError(
      "ARCHIVE_PATH_ESCAPE",
      `Refusing to write archive entry "${entryPath}": it resolves outside the extraction folder.`,
    );
  }
  return path;
}

/** Owner can always read and write; group/other lose write; an archive without modes gets 0644. */
function fileMode(mode: number): number {
  const permissions = mode & 0o777;
  return permissions === 0 ? 0o644 : (permissions | 0o600) & ~0o022;
}
