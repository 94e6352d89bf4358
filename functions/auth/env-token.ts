import { hashVerifier, type TokenVerifier } from "./token-verifier.js";

/** The write-token verifier for a deployment that passes the token's sha256 as `REGISTRY_TOKEN_SHA256`. */
export function envTokenVerifier(env: Record<string, string | undefined> = process.env): TokenVerifier {
  const hash = env.REGISTRY_TOKEN_SHA256?.trim();
  if (!hash) throw new Error("REGISTRY_TOKEN_SHA256 is not set: set it to the sha256 hex of the write token");
  return hashVerifier(hash);
}
