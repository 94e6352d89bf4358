import { timingSafeEqual } from "node:crypto";

/** The header CloudFront adds to every request it forwards (infra/registry-distribution.ts). */
export const ORIGIN_VERIFY_HEADER = "x-origin-verify";

/** Whether a request's `x-origin-verify` value is the distribution's secret (compared in constant time). */
export function carriesOriginSecret(given: string | undefined, secret: string): boolean {
  const expected = Buffer.from(secret);
  const actual = Buffer.from(given ?? "");
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
