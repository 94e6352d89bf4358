import { registryRequest, type RegistryRequestOptions, type RegistryWriteOptions } from "./registry-request.js";

/** A publisher's signing key as the registry lists it (docs/design/publisher-trust.md, "Signatures"). */
export interface RegisteredKey {
  /** `sha256:` + hex sha256 of the key's SPKI DER bytes. */
  key_id: string;
  /** PEM, SPKI, ed25519. */
  public_key: string;
  created_at: string;
  revoked_at?: string;
}

/**
 * Registers an ed25519 public key (PEM) for a publisher (`PUT /publishers/{name}/keys`), with
 * that publisher's token or the admin token. Registering the same key again answers it unchanged.
 *
 *   const { key_id } = await registerPublisherKey("acme", readFileSync("acme.pub.pem", "utf8"), { registryUrl, token });
 */
export function registerPublisherKey(publisher: string, publicKeyPem: string, options: RegistryWriteOptions): Promise<RegisteredKey> {
  return registryRequest(options, "PUT", keysPath(publisher), JSON.stringify({ public_key: publicKeyPem }), {
    "content-type": "application/json",
  });
}

/** A publisher's keys, revoked ones included (`GET /publishers/{name}/keys`, public). */
export function listPublisherKeys(publisher: string, options: RegistryRequestOptions): Promise<RegisteredKey[]> {
  return registryRequest(options, "GET", keysPath(publisher));
}

/** Revokes one key (`DELETE /publishers/{name}/keys/{keyId}`): uploads signed with it are refused from now on. */
export function revokePublisherKey(publisher: string, keyId: string, options: RegistryWriteOptions): Promise<RegisteredKey> {
  return registryRequest(options, "DELETE", `${keysPath(publisher)}/${encodeURIComponent(keyId)}`);
}

function keysPath(publisher: string): string {
  return `/publishers/${encodeURIComponent(publisher)}/keys`;
}
