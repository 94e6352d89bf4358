import type { Context } from "hono";
import { peerAddress, type OriginConfig } from "./request-origin.js";

/**
 * Who sent the request, as the audit log records it: the peer address, or the first
 * `X-Forwarded-For` address when the peer is a trusted proxy (from anyone else that header is
 * whatever the client wrote). "unknown" when the runtime does not say (in-process requests).
 */
export function clientAddress(c: Context, config: Pick<OriginConfig, "trustedProxies">): string {
  const peer = peerAddress(c);
  if (peer !== undefined && (config.trustedProxies ?? []).includes(peer)) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  return peer ?? "unknown";
}
