import type { ArchiveFormat } from "./archive-format.js";

export type ArchiveEntryType = "file" | "directory" | "symlink";

/** One checked entry of a tool archive. */
export interface ArchiveEntry {
  /** Normalised relative posix path without trailing slash, e.g. `code/function.py`. */
  path: string;
  type: ArchiveEntryType;
  /** File content; empty for directories and symlinks. */
  data: Uint8Array;
  /** Unix permission bits (`0o755`); setuid/setgid/sticky are dropped. */
  mode: number;
  /** Symlink target exactly as stored (relative, and checked to stay inside `code/`). */
  linkTarget?: string;
}

export interface ToolArchive {
  format: ArchiveFormat;
  entries: ArchiveEntry[];
}

/** Every kind of entry the readers can meet; only the first three survive the guards. */
export type RawEntryKind = ArchiveEntryType | "hardlink" | "character device" | "block device" | "fifo" | "socket";

/**
 * An entry as a format reader sees it, before path and type guards. `read` inflates lazily so
 * the guards can refuse an entry on its declared size before paying for it.
 */
export interface RawArchiveEntry {
  name: string;
  kind: RawEntryKind;
  mode: number;
  /** Declared uncompressed size. */
  size: number;
  /** Stored size (equal to `size` when not compressed per entry). */
  compressedSize: number;
  linkTarget?: string;
  read(): Uint8Array;
}
