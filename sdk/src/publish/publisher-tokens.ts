import { registryRequest, type RegistryWriteOptions } from "./registry-request.js";

/** What a token may do (docs/design/publisher-trust.md). */
export type PublisherAction = "publish" | "update" | "deprecate" | "yank" | "delete";

export interface PublisherTokenRequest {
  /** Publisher name: lowercase letters, digits and "-". */
  name: string;
  /** Exact tool ids or prefixes ending in `*` (`acme-*`). */
  scope: string[];
  actions: PublisherAction[];
  /** 1 to 8760; the registry's default is 720 (30 days). */
  expiresInHours?: number;
}

export interface PublisherTokenInfo {
  name: string;
  scope: string[];
  actions: PublisherAction[];
  created_at: string;
  expires_at: string;
  revoked_at?: string;
}

/** A new token: `token` is its secret, shown only in this answer. */
export interface MintedPublisherToken extends PublisherTokenInfo {
  token: string;
}

/**
 * Mints a publisher token with the admin token (`POST /tokens`).
 *
 *   const { token } = await createPublisherToken({ name: "acme", scope: ["acme-*"], actions: ["publish"] }, { registryUrl, token: adminToken });
 */
export function createPublisherToken(request: PublisherTokenRequest, options: RegistryWriteOptions): Promise<MintedPublisherToken> {
  const body = {
    name: request.name,
    scope: request.scope,
    actions: request.actions,
    ...(request.expiresInHours === undefined ? {} : { expires_in_hours: request.expiresInHours }),
  };
  return registryRequest(options, "POST", "/tokens", JSON.stringify(body), { "content-type": "application/json" });
}

/** Every publisher token, without secrets (`GET /tokens`, admin token). */
export function listPublisherTokens(options: RegistryWriteOptions): Promise<PublisherTokenInfo[]> {
  return registryRequest(options, "GET", "/tokens");
}

/** Revokes a publisher's token at once (`DELETE /tokens/{name}`, admin token). */
export function revokePublisherToken(name: string, options: RegistryWriteOptions): Promise<{ name: string; revoked_at: string }> {
  return registryRequest(options, "DELETE", `/tokens/${encodeURIComponent(name)}`);
}
