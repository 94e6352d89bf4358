import type { Context } from "hono";

/**
 * The origin a client used to reach the registry: the configured public URL, else the proxy's
 * `X-Forwarded-Proto`/`X-Forwarded-Host` (API Gateway, load balancers), else the request's own.
 */
export function requestOrigin(c: Context, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl;
  const proto = firstValue(c.req.header("x-forwarded-proto")) ?? (c.req.url.startsWith("https:") ? "https" : "http");
  const host = firstValue(c.req.header("x-forwarded-host")) ?? c.req.header("host") ?? new URL(c.req.url).host;
  return `${proto}://${host}`;
}

function firstValue(header: string | undefined): string | undefined {
  const value = header?.split(",")[0]?.trim();
  return value ? value : undefined;
}
