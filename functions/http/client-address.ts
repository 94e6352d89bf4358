import { isIP } from "node:net";
import type { Context } from "hono";
import type { RegistryConfig } from "../config.js";
import { carriesOriginSecret, ORIGIN_VERIFY_HEADER } from "./origin-secret.js";
import { peerAddress } from "./request-origin.js";

export type ClientAddressConfig = Pick<RegistryConfig, "trustedProxies" | "originVerifySecret">;

/** CloudFront's header with the viewer's address and port (`198.51.100.10:46532`, `2001:db8::8a2e:370:7334:46532`). */
export const VIEWER_ADDRESS_HEADER = "cloudfront-viewer-address";

/**
 * Who sent the request, as the audit log records it:
 * - behind CloudFront (`ORIGIN_VERIFY_SECRET`), the viewer address CloudFront wrote, believed only on
 *   a request carrying the distribution's secret (the peer is a CloudFront edge server then);
 * - from a trusted proxy (`TRUSTED_PROXIES`), the first `X-Forwarded-For` address;
 * - else the peer address. From anyone else those headers are whatever the client wrote.
 * "unknown" when the runtime does not say (in-process requests).
 */
export function clientAddress(c: Context, config: ClientAddressConfig): string {
  if (config.originVerifySecret !== undefined && carriesOriginSecret(c.req.header(ORIGIN_VERIFY_HEADER), config.originVerifySecret)) {
    const viewer = viewerAddress(c.req.header(VIEWER_ADDRESS_HEADER));
    if (viewer !== undefined) return viewer;
  }
  const peer = peerAddress(c);
  if (peer !== undefined && (config.trustedProxies ?? []).includes(peer)) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return peer ?? "unknown";
}

/** The address part of `CloudFront-Viewer-Address` (the port follows the last colon), if it is an IP address. */
export function viewerAddress(header: string | undefined): string | undefined {
  const colon = header?.lastIndexOf(":") ?? -1;
  if (header === undefined || colon <= 0 || !/^\d{1,5}$/.test(header.slice(colon + 1))) return undefined;
  const address = header.slice(0, colon);
  return isIP(address) === 0 ? undefined : address;
}
