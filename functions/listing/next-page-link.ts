import type { Context } from "hono";
import { requestOrigin, type OriginConfig } from "../http/request-origin.js";

/**
 * Sets `Link: <…>; rel="next"`: this request's URL under the client's origin, with every
 * parameter kept and `cursor` replaced, so a client follows it unchanged.
 */
export function setNextPageLink(c: Context, origin: OriginConfig, cursor: string): void {
  const url = new URL(c.req.url);
  const next = new URL(`${requestOrigin(c, origin)}${url.pathname}`);
  for (const [name, value] of url.searchParams) if (name !== "cursor") next.searchParams.append(name, value);
  next.searchParams.set("cursor", cursor);
  c.header("Link", `<${next.href}>; rel="next"`);
}
