import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { definitionDigest } from "./definition-digest.js";

/** The first line of what a publisher signs: names the format, so a later one cannot be confused with it. */
export const SIGNATURE_FORMAT = "agent-tools-signature-v1";

/** What a signature binds: the tool, its version, its archive's bytes and its definition. */
export interface SignedVersion {
  tool_id: string;
  version: string;
  /** Hex sha256 of the tool archive. */
  tool_archive_sha256: string;
  [field: string]: unknown;
}

/**
 * The exact bytes an ed25519 signature covers (docs/design/publisher-trust.md, "Signatures"):
 * five lines, each ending in `\n`: the format, the tool id, the version, the archive's hex sha256
 * and the `definitionDigest` of the entry; a sixth for the archives of several platforms. Signer
 * (`agent-tools publish --sign`), registry and SDK
 * all build them here.
 *
 * @example
 * import { sign } from "node:crypto";
 * const value = sign(null, signaturePayload(entry), privateKey).toString("base64");
 */
export function signaturePayload(entry: SignedVersion): Buffer {
  const lines = [SIGNATURE_FORMAT, entry.tool_id, entry.version, entry.tool_archive_sha256.toLowerCase(), definitionDigest(entry)];
  const platforms = platformArchivesLine(entry.tool_platform_archives);
  if (platforms !== undefined) lines.push(platforms);
  return Buffer.from(lines.map((line) => `${line}\n`).join(""), "utf8");
}

/**
 * A version built for several platforms has an archive per platform: a sixth line binds each
 * platform's key to its archive's sha256 (`platforms linux-x64=<hex> linux-arm64=<hex>`), in the
 * entry's order. Versions without platforms sign the five lines they always did.
 */
function platformArchivesLine(archives: unknown): string | undefined {
  if (!Array.isArray(archives) || archives.length === 0) return undefined;
  const pairs = archives.map(
    (archive: { key?: unknown; sha256?: unknown }) => `${String(archive.key)}=${String(archive.sha256).toLowerCase()}`,
  );
  return `platforms ${pairs.join(" ")}`;
}

/**
 * A publisher key's id: `sha256:` and the hex sha256 of its SPKI DER bytes. Computed from the key
 * itself, so whoever holds the key can check an id a registry names.
 */
export function publicKeyId(key: KeyObject | string): string {
  const object = typeof key === "string" ? createPublicKey(key) : key;
  return `sha256:${createHash("sha256")
    .update(object.export({ type: "spki", format: "der" }))
    .digest("hex")}`;
}
