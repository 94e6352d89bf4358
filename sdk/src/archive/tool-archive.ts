import type { ToolArchive } from "./archive-entry.js";
import type { ArchiveLimits } from "./archive-limits.js";
import { readArchive } from "./archive-reader.js";
import { checkCodeLayout } from "./code-layout.js";

/**
 * Reads a tool archive (zip, tar.gz or tar, judged by content) entirely in memory and returns
 * its entries only if every guard passes: safe relative paths under `code/`, no devices or hard
 * links, symlinks kept inside `code/`, no duplicates, and the entry-count, size and compression
 * ratio limits. Throws `ArchiveError` naming the first problem and how to fix it.
 */
export function readToolArchive(bytes: Uint8Array, limits: Partial<ArchiveLimits> = {}): ToolArchive {
  return readArchive(bytes, limits, checkCodeLayout);
}
