import { createHash, timingSafeEqual } from "node:crypto";

/** Decides whether a bearer token may write. Implementations only ever hold token hashes. */
export type TokenVerifier = (token: string) => Promise<boolean>;

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Accepts exactly the token whose sha256 is `expectedSha256Hex`, compared in constant time. */
export function hashVerifier(expectedSha256Hex: string): TokenVerifier {
  if (!/^[0-9a-f]{64}$/i.test(expectedSha256Hex)) {
    throw new Error("a write-token hash must be 64 hex characters (the sha256 of the token)");
  }
  const expected = Buffer.from(expectedSha256Hex, "hex");
  return async (token) => timingSafeEqual(createHash("sha256").update(token, "utf8").digest(), expected);
}

/** For route groups that never write (fetch, search). */
export const rejectAllTokens: TokenVerifier = async () => false;
