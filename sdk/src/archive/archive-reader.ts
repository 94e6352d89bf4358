import { ArchiveError } from "./archive-error.js";
import type { ArchiveEntry, ToolArchive } from "./archive-entry.js";
import { detectArchiveFormat } from "./archive-format.js";
import { resolveArchiveLimits, type ArchiveLimits } from "./archive-limits.js";
import { vetEntries, type VettedEntry } from "./entry-guards.js";
import { isMacOsMetadata } from "./macos-metadata.js";
import { readRawEntries } from "./raw-entries.js";

/**
 * Reads any zip, tar.gz or tar (judged by content) in memory under the path, type and size
 * guards, without macOS metadata entries (`macos-metadata.ts`). `checkLayout` sees the vetted
 * entries before any data is inflated and throws to refuse.
 */
export function readArchive(
  bytes: Uint8Array,
  limits: Partial<ArchiveLimits> = {},
  checkLayout: (entries: VettedEntry[]) => void = () => {},
): ToolArchive {
  const format = detectArchiveFormat(bytes);
  if (format === undefined) {
    throw new ArchiveError(
      "ARCHIVE_UNSUPPORTED_FORMAT",
      `The archive is neither a zip nor a tar.gz (it starts with bytes ${describeStart(bytes)}). ` +
        `Create it with \`zip -r tool.zip code\`, or \`tar czf tool.zip code\` for binaries.`,
    );
  }
  const resolved = resolveArchiveLimits(limits);
  const vetted = vetEntries(readRawEntries(bytes, format, resolved), resolved).filter(({ path }) => !isMacOsMetadata(path));
  checkLayout(vetted);
  return { format, entries: vetted.map(readEntry) };
}

function readEntry({ path, type, raw }: VettedEntry): ArchiveEntry {
  return {
    path,
    type,
    data: type === "file" ? raw.read() : new Uint8Array(0),
    mode: raw.mode & 0o777,
    ...(type === "symlink" ? { linkTarget: raw.linkTarget ?? "" } : {}),
  };
}

function describeStart(bytes: Uint8Array): string {
  if (bytes.length === 0) return "none: it is empty";
  return Array.from(bytes.subarray(0, 4), (byte) => byte.toString(16).padStart(2, "0")).join(" ");
}
