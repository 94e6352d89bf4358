import { ArchiveError } from "./archive-error.js";
import type { RawArchiveEntry, RawEntryKind } from "./archive-entry.js";
import { hasUstarMagic } from "./archive-format.js";

const BLOCK = 512;

const KIND_BY_TYPEFLAG: Record<string, RawEntryKind> = {
  "0": "file",
  "\0": "file",
  "7": "file",
  "1": "hardlink",
  "2": "symlink",
  "3": "character device",
  "4": "block device",
  "5": "directory",
  "6": "fifo",
};

/**
 * Reads a tar (ustar, GNU `L`/`K` long names, pax `path`/`linkpath`/`size` records) into raw
 * entries. Names are returned as stored; the caller's guards judge them. Header checksums are
 * verified so random bytes are reported as damage, not as odd entries.
 */
export function readTarEntries(tar: Uint8Array, maxEntries: number): RawArchiveEntry[] {
  const entries: RawArchiveEntry[] = [];
  let pending: { path?: string; linkpath?: string; size?: number } = {};
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    verifyChecksum(header, offset);
    const typeflag = String.fromCharCode(header[156]!);
    const isMetaHeader = "xgLK".includes(typeflag);
    // A pax `size` record describes the next real entry, never another extended header.
    const size = isMetaHeader ? readNumber(header, 124, 12) : (pending.size ?? readNumber(header, 124, 12));
    const dataStart = offset + BLOCK;
    if (!Number.isSafeInteger(size) || size < 0) corrupt(`the header at byte ${offset} has an unreadable size`);
    if (dataStart + size > tar.length) corrupt(`an entry at byte ${offset} runs past the end of the archive`);
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;

    if (typeflag === "x") {
      pending = { ...pending, ...readPaxRecords(data) };
      continue;
    }
    if (typeflag === "L" || typeflag === "K") {
      pending = { ...pending, [typeflag === "L" ? "path" : "linkpath"]: readString(data, 0, data.length) };
      continue;
    }
    if (typeflag === "g") continue;
    const kind = KIND_BY_TYPEFLAG[typeflag];
    const name = pending.path ?? headerName(header);
    if (kind === undefined) {
      throw new ArchiveError(
        "ARCHIVE_UNSUPPORTED_FEATURE",
        `"${name}" has tar entry type '${typeflag}' (sparse, multi-volume or vendor specific), ` +
          `which is not supported. Create the archive with plain \`tar czf tool.zip code\`.`,
      );
    }
    if (entries.length === maxEntries) {
      throw new ArchiveError(
        "ARCHIVE_TOO_MANY_ENTRIES",
        `The tar holds more than ${maxEntries} entries. Remove generated or vendored files from code/.`,
      );
    }
    const linkTarget = pending.linkpath ?? readString(header, 157, 100);
    entries.push({
      name,
      kind,
      mode: readNumber(header, 100, 8) & 0o7777,
      size: kind === "file" ? size : 0,
      compressedSize: kind === "file" ? size : 0,
      ...(kind === "symlink" || kind === "hardlink" ? { linkTarget } : {}),
      read: () => (kind === "file" ? data : new Uint8Array(0)),
    });
    pending = {};
  }
  return entries;
}

/** POSIX ustar splits long names into `prefix/name`; GNU tar uses that field for other data. */
function headerName(header: Uint8Array): string {
  const name = readString(header, 0, 100);
  const isPosixUstar = hasUstarMagic(header, 0) && header[262] === 0;
  const prefix = isPosixUstar ? readString(header, 345, 155) : "";
  return prefix ? `${prefix}/${name}` : name;
}

/** Records are `"<length> key=value\n"` where length counts bytes (UTF-8), so parse on bytes. */
function readPaxRecords(data: Uint8Array): { path?: string; linkpath?: string; size?: number } {
  const records: { path?: string; linkpath?: string; size?: number } = {};
  for (let at = 0; at < data.length; ) {
    const space = data.indexOf(0x20, at);
    const length = space < 0 ? Number.NaN : Number(new TextDecoder().decode(data.subarray(at, space)));
    if (!Number.isSafeInteger(length) || length <= space - at || at + length > data.length) corrupt("a pax extended header is malformed");
    const record = new TextDecoder().decode(data.subarray(space + 1, at + length - 1));
    const equals = record.indexOf("=");
    const key = record.slice(0, equals);
    const value = record.slice(equals + 1);
    if (key === "path" || key === "linkpath") records[key] = value;
    if (key === "size") records.size = Number(value);
    at += length;
  }
  return records;
}

function verifyChecksum(header: Uint8Array, offset: number): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  if (sum !== readNumber(header, 148, 8)) corrupt(`the header at byte ${offset} fails its checksum (not a tar, or truncated)`);
}

/** Octal text, or GNU base-256 (high bit set) for very large values. */
function readNumber(header: Uint8Array, start: number, length: number): number {
  if (header[start]! & 0x80) {
    let value = header[start]! & 0x7f;
    for (let i = 1; i < length; i++) value = value * 256 + header[start + i]!;
    return value;
  }
  const text = readString(header, start, length).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

function readString(bytes: Uint8Array, start: number, length: number): string {
  const field = bytes.subarray(start, start + length);
  const nul = field.indexOf(0);
  return new TextDecoder().decode(nul < 0 ? field : field.subarray(0, nul));
}

function corrupt(reason: string): never {
  throw new ArchiveError(
    "ARCHIVE_CORRUPT",
    `The tar is damaged: ${reason}. Re-create it with \`tar czf tool.zip code\` and upload it again.`,
  );
}
