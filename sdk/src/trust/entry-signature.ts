import { verify } from "node:crypto";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { signaturePayload } from "../tool-spec/publisher-signature.js";
import type { PublisherKey } from "./publisher-keys.js";
import { TrustError } from "./trust-errors.js";
import { untrustedText } from "./untrusted-text.js";

/** A signed entry's `signature`, checked for form. */
export interface EntrySignature {
  keyId: string;
  value: Buffer;
  /** The entry's `owner`: whose keys the signature must verify with. */
  owner: string;
}

const KEY_ID = /^sha256:[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]{86}==$/; // 64 bytes: an ed25519 signature
const OWNER = /^[a-z0-9][a-z0-9-]{0,62}$/;
const SHA256 = /^[0-9a-fA-F]{64}$/;

/**
 * The signature of an entry, undefined when it is unsigned. Anything malformed (another shape, a
 * value that is not a 64-byte base64 signature, no owner to look the key up by, no archive digest
 * to bind) is refused: a registry that sends it cannot be trusted to mean "unsigned" either.
 */
export function readEntrySignature(entry: ToolRecord, version: string): EntrySignature | undefined {
  const { signature, owner } = entry;
  if (signature === undefined || signature === null) return undefined;
  const malformed = (what: string) =>
    new TrustError(
      "SIGNATURE_MALFORMED",
      `Tool "${entry.tool_id}" version ${version} carries a malformed signature: ${what}. ` +
        `The registry sent something no publisher signed; do not run it, and check toolsDbUrl.`,
      { toolId: entry.tool_id },
    );
  if (typeof signature !== "object" || Array.isArray(signature)) throw malformed("it is not an object");
  const { key_id: keyId, value } = signature as Record<string, unknown>;
  if (typeof keyId !== "string" || !KEY_ID.test(keyId)) throw malformed('its key_id is not "sha256:" and 64 hex digits');
  if (typeof value !== "string" || !BASE64.test(value)) throw malformed("its value is not a base64 ed25519 signature (64 bytes)");
  if (typeof owner !== "string" || !OWNER.test(owner))
    throw malformed(
      `the entry names no valid owner ` +
        `(${typeof owner === "string" ? JSON.stringify(untrustedText(owner).slice(0, 64)) : typeof owner}) whose keys could verify it`,
    );
  if (typeof entry.tool_archive_sha256 !== "string" || !SHA256.test(entry.tool_archive_sha256))
    throw malformed("the entry has no tool_archive_sha256 for it to cover");
  return { keyId, value: Buffer.from(value, "base64"), owner };
}

/** Whether `signature` is `key`'s over this version's tool id, version, archive digest and definition. */
export function signatureVerifies(entry: ToolRecord, version: string, signature: EntrySignature, key: PublisherKey): boolean {
  const payload = signaturePayload({ ...entry, version, tool_archive_sha256: entry.tool_archive_sha256 as string });
  try {
    return verify(null, payload, key.key, signature.value);
  } catch {
    return false;
  }
}
