import type { Context } from "hono";
import type { RegistryConfig } from "../config.js";

/** What decides the origin the registry writes into links (`tool_source_code_link`, `completeUrl`, `Link`). */
export type OriginConfig = Pick<RegistryConfig, "publicUrl" | "trustedProxies">;

/**
 * The origin clients reach the registry at: the configured `PUBLIC_URL` (the stack sets it to the
 * distribution or custom domain), else the request's own. `X-Forwarded-Proto`/`X-Forwarded-Host`
 * are believed only from a peer listed in `TRUSTED_PROXIES`: from anyone else they are whatever
 * the client chose to write, and would put `evil.example` into the links other clients follow.
 */
export function requestOrigin(c: Context, config: OriginConfig): string {
  if (config.publicUrl) return config.publicUrl;
  const own = new URL(c.req.url);
  const peer = peerAddress(c);
  if (peer === undefined || !(config.trustedProxies ?? []).includes(peer)) return own.origin;
  const proto = firstValue(c.req.header("x-forwarded-proto"));
  const host = firstValue(c.req.header("x-forwarded-host"));
  return `${proto === "http" || proto === "https" ? proto : own.protocol.slice(0, -1)}://${host ?? own.host}`;
}

/** The address of whoever opened the connection: the socket's on Node, API Gateway's `sourceIp` on Lambda. */
export function peerAddress(c: Context): string | undefined {
  const env = c.env as
    | { incoming?: { socket?: { remoteAddress?: string } }; event?: { requestContext?: { http?: { sourceIp?: string } } } }
    | undefined;
  const address = env?.incoming?.socket?.remoteAddress ?? env?.event?.requestContext?.http?.sourceIp;
  return address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
}

function firstValue(header: string | undefined): string | undefined {
  const value = header?.split(",")[0]?.trim();
  return value ? value : undefined;
}
