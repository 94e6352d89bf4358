import type { Context } from "hono";

/** A 200 answer whose JSON is already serialised (memoised entry JSON on the read paths). */
export function jsonText(c: Context, json: string, headers: Record<string, string> = {}): Response {
  return c.body(json, 200, { "Content-Type": "application/json", ...headers });
}
