import { ArchiveError } from "./archive-error.js";
import type { RawArchiveEntry, RawEntryKind } from "./archive-entry.js";
import { crc32 } from "./crc32.js";
import { inflateBounded, inflateKnownSize, ONE_SHOT_MAX_INPUT_BYTES } from "./bounded-inflate.js";

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const CENTRAL_HEADER_BYTES = 46;
const LOCAL_HEADER_BYTES = 30;
const MADE_BY_UNIX = 3;
const STORED = 0;
const DEFLATED = 8;
const MAX_LINK_TARGET_BYTES = 4096;

/**
 * Lists a zip's entries from its central directory (names, unix modes from the external
 * attributes, declared sizes) without inflating anything; each entry inflates on `read()`.
 * The entry count is checked against `maxEntries` before any entry is parsed.
 */
export function readZipEntries(bytes: Uint8Array, maxEntries: number): RawArchiveEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(view);
  const count = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    throw new ArchiveError(
      "ARCHIVE_UNSUPPORTED_FEATURE",
      "ZIP64 archives are not supported: an archive this large exceeds the registry's limits. Ship a smaller tool.",
    );
  }
  if (count > maxEntries) {
    throw new ArchiveError(
      "ARCHIVE_TOO_MANY_ENTRIES",
      `The zip holds ${count} entries; at most ${maxEntries} are allowed. Remove generated or vendored files from code/.`,
    );
  }
  const entries: RawArchiveEntry[] = [];
  let offset = directoryOffset;
  for (let i = 0; i < count; i++) {
    requireSignature(view, offset, CENTRAL_DIRECTORY_HEADER, CENTRAL_HEADER_BYTES, "central directory");
    const nameLength = view.getUint16(offset + 28, true);
    const header = {
      madeBy: view.getUint16(offset + 4, true) >> 8,
      flags: view.getUint16(offset + 8, true),
      method: view.getUint16(offset + 10, true),
      crc: view.getUint32(offset + 16, true),
      compressedSize: view.getUint32(offset + 20, true),
      size: view.getUint32(offset + 24, true),
      externalAttributes: view.getUint32(offset + 38, true),
      localOffset: view.getUint32(offset + 42, true),
      name: new TextDecoder().decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
    };
    entries.push(toRawEntry(bytes, view, header));
    offset += 46 + nameLength + view.getUint16(offset + 30, true) + view.getUint16(offset + 32, true);
  }
  return entries;
}

interface CentralHeader {
  madeBy: number;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  externalAttributes: number;
  localOffset: number;
  name: string;
}

function toRawEntry(bytes: Uint8Array, view: DataView, header: CentralHeader): RawArchiveEntry {
  if (header.flags & 1) {
    throw new ArchiveError("ARCHIVE_UNSUPPORTED_FEATURE", `"${header.name}" is encrypted. Create the archive without a password.`);
  }
  if (header.method !== STORED && header.method !== DEFLATED) {
    throw new ArchiveError(
      "ARCHIVE_UNSUPPORTED_FEATURE",
      `"${header.name}" uses compression method ${header.method}; only stored ` +
        `and deflate are supported. Re-create it with \`zip -r tool.zip code\`.`,
    );
  }
  const unixMode = header.madeBy === MADE_BY_UNIX ? header.externalAttributes >>> 16 : 0;
  const kind = kindOf(header.name, unixMode, header.externalAttributes);
  if (kind === "symlink" && header.size > MAX_LINK_TARGET_BYTES) {
    throw new ArchiveError(
      "ARCHIVE_PATH_INVALID",
      `The symlink "${header.name}" has a ${header.size}-byte target; link targets are paths of at most ${MAX_LINK_TARGET_BYTES} bytes.`,
    );
  }
  const read = () => readData(bytes, view, header);
  return {
    name: header.name,
    kind,
    mode: unixMode & 0o7777 || (kind === "directory" ? 0o755 : 0o644),
    size: header.size,
    compressedSize: header.compressedSize,
    ...(kind === "symlink" ? { linkTarget: new TextDecoder().decode(read()) } : {}),
    read,
  };
}

/** Unix file type bits when the archive was made on unix; otherwise the DOS directory flag or a trailing slash. */
function kindOf(name: string, unixMode: number, externalAttributes: number): RawEntryKind {
  switch (unixMode & 0o170000) {
    case 0o040000:
      return "directory";
    case 0o120000:
      return "symlink";
    case 0o020000:
      return "character device";
    case 0o060000:
      return "block device";
    case 0o010000:
      return "fifo";
    case 0o140000:
      return "socket";
    default:
      return name.endsWith("/") || externalAttributes & 0x10 ? "directory" : "file";
  }
}

function readData(bytes: Uint8Array, view: DataView, header: CentralHeader): Uint8Array {
  requireSignature(view, header.localOffset, LOCAL_FILE_HEADER, LOCAL_HEADER_BYTES, `local header of "${header.name}"`);
  const start = header.localOffset + 30 + view.getUint16(header.localOffset + 26, true) + view.getUint16(header.localOffset + 28, true);
  if (start + header.compressedSize > bytes.length) corrupt(`"${header.name}" runs past the end of the file`);
  const stored = bytes.subarray(start, start + header.compressedSize);
  if (header.method === STORED) {
    if (header.compressedSize !== header.size) corrupt(`"${header.name}" is stored but its sizes disagree`);
    return checkCrc(stored, header);
  }
  const beyondDeclared = () => corrupt(`"${header.name}" inflates beyond its declared ${header.size} bytes`);
  const data =
    stored.length <= ONE_SHOT_MAX_INPUT_BYTES
      ? inflateKnownSize(stored, header.size)
      : inflateBounded(stored, "deflate", (produced) => {
          if (produced > header.size) beyondDeclared();
        });
  if (data === undefined) return beyondDeclared();
  if (data.length !== header.size) corrupt(`"${header.name}" inflates to ${data.length} bytes, not the declared ${header.size}`);
  return checkCrc(data, header);
}

function checkCrc(data: Uint8Array, header: CentralHeader): Uint8Array {
  if (crc32(data) !== header.crc) corrupt(`"${header.name}" fails its CRC-32 check (damaged in transit or storage)`);
  return data;
}

function findEndOfCentralDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let offset = view.byteLength - 22; offset >= lowest; offset--) {
    if (view.getUint32(offset, true) === END_OF_CENTRAL_DIRECTORY) return offset;
  }
  return corrupt("its end-of-central-directory record is missing (truncated upload?)");
}

/** The fixed-size header at `offset` fits in the file and starts with `signature`. */
function requireSignature(view: DataView, offset: number, signature: number, headerBytes: number, what: string): void {
  if (offset + headerBytes > view.byteLength || view.getUint32(offset, true) !== signature) corrupt(`the ${what} is damaged`);
}

function corrupt(reason: string): never {
  throw new ArchiveError(
    "ARCHIVE_CORRUPT",
    `The zip is damaged: ${reason}. Re-create it with \`zip -r tool.zip code\` and upload it again.`,
  );
}
