import { createHash } from "node:crypto";

export interface ArchiveDigest {
  sha256: string;
  /** Subresource-integrity string, `sha512-<base64>`. */
  integrity: string;
  size: number;
}

export function archiveDigest(bytes: Uint8Array): ArchiveDigest {
  return {
    sha256: createHash("sha256").update(bytes).digest("hex"),
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
    size: bytes.byteLength,
  };
}
