export type ArchiveFormat = "zip" | "tar.gz" | "tar";

/**
 * The archive format judged by content (magic bytes), never by file name (docs/design/compatibility.md#layout): the Python tools shipped
 * binary tools as a tar.gz named `tool.zip`.
 */
export function detectArchiveFormat(bytes: Uint8Array): ArchiveFormat | undefined {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return "zip";
  if (startsWith(bytes, [0x1f, 0x8b])) return "tar.gz";
  if (hasUstarMagic(bytes, 0)) return "tar";
  return undefined;
}

/** `ustar` at offset 257 of a 512-byte header: POSIX (`ustar\0`) and GNU (`ustar  `) tars. */
export function hasUstarMagic(bytes: Uint8Array, headerOffset: number): boolean {
  return startsWith(bytes.subarray(headerOffset + 257), [0x75, 0x73, 0x74, 0x61, 0x72]);
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}
