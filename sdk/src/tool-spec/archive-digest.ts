import { createHash } from "node:crypto";
import { platformArchiveName, platformKey, type PlatformArchive, type ToolPlatform } from "./tool-platforms.js";

export interface ArchiveDigest {
  sha256: string;
  /** Subresource-integrity string, `sha512-<base64>`. */
  integrity: string;
  size: number;
}

/**
 * The digests the registry records for an archive (`tool_archive_sha256`, `tool_archive_integrity`,
 * `tool_archive_size`) and a signer signs.
 */
export function archiveDigest(bytes: Uint8Array): ArchiveDigest {
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
    size: bytes.byteLength,
  };
}

/**
 * The entry's `tool_platform_archives` for the declared platforms, each archive read with
 * `bytesOf(name)` by its bundle file name (`platformArchiveName`): the registry records them, and a
 * signer signs the same list (`signaturePayload`'s platforms line).
 */
export function platformArchives(platforms: readonly ToolPlatform[], bytesOf: (name: string) => Uint8Array): PlatformArchive[] {
  return platforms.map((platform, index) => {
    const { sha256, integrity, size } = archiveDigest(bytesOf(platformArchiveName(platform, index)));
    return { platform, key: platformKey(platform), sha256, integrity, size };
  });
}
