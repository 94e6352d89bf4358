import { ArchiveError } from "./archive-error.js";
import type { ArchiveEntryType, RawArchiveEntry } from "./archive-entry.js";
import { RATIO_CHECK_FLOOR_BYTES, type ArchiveLimits } from "./archive-limits.js";
import { resolveArchiveLinks } from "./archive-links.js";
import { normaliseEntryPath } from "./entry-path.js";

/** An entry whose name, type, link and declared size passed the guards; its data is not read yet. */
export interface VettedEntry {
  path: string;
  type: ArchiveEntryType;
  raw: RawArchiveEntry;
  /** For a symlink: the archive path it leads to once unpacked, every link on the way followed (`archive-links.ts`). */
  resolvedLink?: string;
}

/**
 * Judges every entry on metadata only, so a hostile archive is refused before anything is
 * inflated: safe relative names, only files/folders/symlinks, declared sizes and ratios within
 * the limits, no duplicates, nothing below a file or link, links that stay inside the archive
 * when resolved together, as the kernel will.
 */
export function vetEntries(rawEntries: RawArchiveEntry[], limits: ArchiveLimits): VettedEntry[] {
  const vetted: VettedEntry[] = [];
  let totalBytes = 0;
  for (const raw of rawEntries) {
    const path = normaliseEntryPath(raw.name);
    if (path === "" && raw.kind === "directory") continue;
    if (raw.kind !== "file" && raw.kind !== "directory" && raw.kind !== "symlink") {
      const to = raw.kind === "hardlink" ? ` to "${raw.linkTarget}"` : "";
      throw new ArchiveError(
        "ARCHIVE_ENTRY_TYPE",
        `The entry "${raw.name}" is a ${raw.kind}${to}; archives may hold only ` +
          `regular files, folders and symlinks. Replace it with a regular file.`,
      );
    }
    totalBytes += raw.size;
    checkSize(raw, totalBytes, limits);
    vetted.push({ path, type: raw.kind, raw });
  }
  checkUniqueAndUnshadowed(vetted);
  const resolved = resolveArchiveLinks(vetted.map(({ path, type, raw }) => ({ path, type, linkTarget: raw.linkTarget ?? "" })));
  return vetted.map((entry) => (entry.type === "symlink" ? { ...entry, resolvedLink: resolved.get(entry.path)! } : entry));
}

function checkSize(raw: RawArchiveEntry, totalBytes: number, limits: ArchiveLimits): void {
  if (raw.size > limits.maxEntryBytes) {
    throw new ArchiveError(
      "ARCHIVE_ENTRY_TOO_LARGE",
      `The file "${raw.name}" unpacks to ${raw.size} bytes; one file may be at most ${limits.maxEntryBytes} bytes. Ship a smaller file.`,
    );
  }
  if (totalBytes > limits.maxTotalBytes) {
    throw new ArchiveError(
      "ARCHIVE_TOTAL_TOO_LARGE",
      `The archive unpacks to more than ${limits.maxTotalBytes} bytes, the limit. Ship less (no caches, no build outputs).`,
    );
  }
  if (raw.size > RATIO_CHECK_FLOOR_BYTES && raw.size / Math.max(raw.compressedSize, 1) > limits.maxCompressionRatio) {
    throw new ArchiveError(
      "ARCHIVE_COMPRESSION_RATIO",
      `The file "${raw.name}" expands from ${raw.compressedSize} to ${raw.size} bytes (more than ` +
        `${limits.maxCompressionRatio}:1): it looks like a decompression bomb. Remove padding or generated data.`,
    );
  }
}

function checkUniqueAndUnshadowed(vetted: VettedEntry[]): void {
  const typeByPath = new Map<string, ArchiveEntryType>();
  const pathByFoldedCase = new Map<string, string>();
  for (const { path, type } of vetted) {
    if (typeByPath.has(path)) {
      throw new ArchiveError(
        "ARCHIVE_DUPLICATE_PATH",
        `The archive holds "${path}" twice; an extractor would silently keep one. Re-create the archive from a clean folder.`,
      );
    }
    const sameButCase = pathByFoldedCase.get(path.toLowerCase());
    if (sameButCase !== undefined) {
      throw new ArchiveError(
        "ARCHIVE_DUPLICATE_PATH",
        `"${sameButCase}" and "${path}" differ only by case, so they collide ` +
          `on macOS and Windows, where agents also run tools. Rename one of them.`,
      );
    }
    typeByPath.set(path, type);
    pathByFoldedCase.set(path.toLowerCase(), path);
  }
  for (const { path } of vetted) {
    const shadowing = ancestors(path).find((ancestor) => (typeByPath.get(ancestor) ?? "directory") !== "directory");
    if (shadowing !== undefined) {
      throw new ArchiveError(
        "ARCHIVE_PATH_CONFLICT",
        `The entry "${path}" sits below "${shadowing}", which is a ${typeByPath.get(shadowing)}; ` +
          `writing through it could escape the folder. Re-create the archive from a clean folder.`,
      );
    }
  }
}

/** `code/a/b` → `["code", "code/a"]`. */
function ancestors(path: string): string[] {
  const segments = path.split("/");
  return segments.slice(1).map((_, i) => segments.slice(0, i + 1).join("/"));
}
