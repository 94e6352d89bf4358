import type { RawEntryKind } from "./archive-entry.js";

/** One entry to write; `type` may be any kind a tar can carry, so checks can be exercised against real tars. */
export interface TarInputEntry {
  path: string;
  type?: TarEntryKind;
  data?: Uint8Array | string;
  /** Unix permission bits; defaults to 0o644 for files, 0o755 for folders, 0o777 for links. */
  mode?: number;
  linkTarget?: string;
  /** Seconds since the epoch; fixed by default so the same input gives the same bytes. */
  mtime?: number;
  /** Owner ids recorded for the extractor (default 0, root). */
  uid?: number;
  gid?: number;
}

const BLOCK = 512;
/** Sockets cannot be stored in a tar. */
export type TarEntryKind = Exclude<RawEntryKind, "socket">;

const TYPEFLAG: Record<TarEntryKind, string> = {
  file: "0",
  hardlink: "1",
  symlink: "2",
  "character device": "3",
  "block device": "4",
  directory: "5",
  fifo: "6",
};

/**
 * A POSIX ustar archive of `entries`, with pax `path`/`linkpath` records for names over 100
 * bytes. Deterministic: same entries, same bytes. Gzip it (fflate `gzipSync`) for a tar.gz.
 */
export function writeTar(entries: TarInputEntry[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const entry of entries) {
    const type = entry.type ?? "file";
    const data = type === "file" ? toBytes(entry.data ?? "") : new Uint8Array(0);
    const longNames = paxRecords(entry);
    if (longNames.length > 0)
      pushWithData(blocks, header({ path: "PaxHeader", typeflag: "x", size: longNames.length, mode: 0o644 }), longNames);
    const mode = entry.mode ?? (type === "directory" ? 0o755 : type === "symlink" ? 0o777 : 0o644);
    const fields = {
      path: entry.path,
      typeflag: TYPEFLAG[type],
      size: data.length,
      mode,
      linkTarget: entry.linkTarget ?? "",
      mtime: entry.mtime ?? 0,
      uid: entry.uid ?? 0,
      gid: entry.gid ?? 0,
    };
    pushWithData(blocks, header(fields), data);
  }
  blocks.push(new Uint8Array(BLOCK * 2));
  return concat(blocks);
}

function paxRecords(entry: TarInputEntry): Uint8Array {
  const records = [
    ["path", entry.path],
    ["linkpath", entry.linkTarget ?? ""],
  ]
    .filter(([, value]) => new TextEncoder().encode(value).length > 100)
    .map(([key, value]) => paxRecord(key!, value!));
  return toBytes(records.join(""));
}

/** `"<length> key=value\n"`, where length counts its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = new TextEncoder().encode(body).length;
  let length = bodyLength + 1;
  while (String(length).length + bodyLength !== length) length++;
  return `${length}${body}`;
}

interface HeaderFields {
  path: string;
  typeflag: string;
  size: number;
  mode: number;
  linkTarget?: string;
  mtime?: number;
  uid?: number;
  gid?: number;
}

function header(fields: HeaderFields): Uint8Array {
  const block = new Uint8Array(BLOCK);
  writeText(block, 0, 100, fields.path);
  writeOctal(block, 100, 8, fields.mode);
  writeOctal(block, 108, 8, fields.uid ?? 0);
  writeOctal(block, 116, 8, fields.gid ?? 0);
  writeOctal(block, 124, 12, fields.size);
  writeOctal(block, 136, 12, fields.mtime ?? 0);
  writeText(block, 156, 1, fields.typeflag);
  writeText(block, 157, 100, fields.linkTarget ?? "");
  writeText(block, 257, 6, "ustar");
  writeText(block, 263, 2, "00");
  block.fill(0x20, 148, 156);
  const checksum = block.reduce((sum, byte) => sum + byte, 0);
  writeText(block, 148, 8, `${checksum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

function pushWithData(blocks: Uint8Array[], headerBlock: Uint8Array, data: Uint8Array): void {
  blocks.push(headerBlock, data);
  const padding = (BLOCK - (data.length % BLOCK)) % BLOCK;
  if (padding > 0) blocks.push(new Uint8Array(padding));
}

/** Truncates to the field: names over 100 bytes travel in the pax record written before the header. */
function writeText(block: Uint8Array, offset: number, length: number, text: string): void {
  block.set(new TextEncoder().encode(text).subarray(0, length), offset);
}

function writeOctal(block: Uint8Array, offset: number, length: number, value: number): void {
  writeText(block, offset, length - 1, value.toString(8).padStart(length - 1, "0"));
}

function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
