import { createPublicKey, type KeyObject } from "node:crypto";
import { publicKeyId } from "../tool-spec/publisher-signature.js";
import { TrustError } from "./trust-errors.js";

/** More keys than any publisher rotates through; a registry listing more is not read past them. */
const MAX_LISTED_KEYS = 100;

/** A usable ed25519 public key and the id computed from it. */
export interface PublisherKey {
  keyId: string;
  pem: string;
  key: KeyObject;
}

/** A key the registry lists for a publisher, checked: its `key_id` is the one computed from the key. */
export interface ListedKey extends PublisherKey {
  revoked: boolean;
}

/** An ed25519 public key from PEM (SPKI); undefined for anything else (another algorithm, garbage). */
export function readPublisherKey(pem: unknown): PublisherKey | undefined {
  if (typeof pem !== "string" || pem.length > 4096) return undefined;
  try {
    const key = createPublicKey(pem);
    return key.asymmetricKeyType === "ed25519" ? { keyId: publicKeyId(key), pem, key } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The keys of `GET /publishers/{name}/keys`, keeping only well-formed ed25519 keys whose
 * `key_id` matches the key: a registry cannot name one key with another's id.
 */
export function readListedKeys(answer: unknown): ListedKey[] {
  if (!Array.isArray(answer)) return [];
  return answer.slice(0, MAX_LISTED_KEYS).flatMap((item: unknown) => {
    if (typeof item !== "object" || item === null) return [];
    const { key_id: keyId, public_key: pem, revoked_at: revokedAt } = item as Record<string, unknown>;
    const key = readPublisherKey(pem);
    if (key === undefined || key.keyId !== keyId) return [];
    return [{ ...key, revoked: revokedAt !== undefined && revokedAt !== null }];
  });
}

/** `trustedKeys` (owner → PEM or PEMs), checked once at construction: every problem in one error. */
export function readTrustedKeys(value: unknown): Map<string, PublisherKey[]> {
  const keys = new Map<string, PublisherKey[]>();
  if (value === undefined) return keys;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TrustError(
      "TRUST_OPTIONS_INVALID",
      'trustedKeys must map publisher names to PEM public keys, e.g. { acme: "-----BEGIN PUBLIC KEY-----…" }.',
    );
  }
  const problems: string[] = [];
  for (const [owner, pems] of Object.entries(value)) {
    const list: unknown[] = Array.isArray(pems) ? pems : [pems];
    const read = list.map(readPublisherKey);
    read.forEach((key, index) => {
      if (key === undefined)
        problems.push(`trustedKeys.${owner}${Array.isArray(pems) ? `[${index}]` : ""} is not an ed25519 public key in PEM (SPKI) form`);
    });
    keys.set(
      owner,
      read.filter((key): key is PublisherKey => key !== undefined),
    );
  }
  if (problems.length > 0)
    throw new TrustError(
      "TRUST_OPTIONS_INVALID",
      `${problems.join("; ")}. Export the key with \`openssl pkey -pubout\` or crypto's export({ type: "spki", format: "pem" }).`,
    );
  return keys;
}
