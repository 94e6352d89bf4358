import type { Context } from "hono";
import type { PublishedEntry } from "../entry/published-entry.js";

/**
 * An entry's validator: its archive hash and last change. A version re-published after a delete
 * (new bytes) or edited by PUT gets a new tag, so a client holding an entry revalidates it with one
 * small conditional GET. Weak, because the body also varies with the origin the client reached.
 */
export function entryEntityTag(entry: PublishedEntry): string {
  return `W/"${entry.tool_archive_sha256}.${Date.parse(entry.updated_at)}"`;
}

/** Whether the request's `If-None-Match` names `tag` (weak comparison, as RFC 9110 asks for this header). */
export function requestHasEntityTag(c: Context, tag: string): boolean {
  const header = c.req.header("if-none-match");
  if (header === undefined) return false;
  const opaque = tag.replace(/^W\//, "");
  return header.split(",").some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === "*" || trimmed.replace(/^W\//, "") === opaque;
  });
}

/** A 304 for a request that already holds `tag`, else undefined. */
export function notModified(c: Context, tag: string, headers: Record<string, string>): Response | undefined {
  return requestHasEntityTag(c, tag) ? c.body(null, 304, { ETag: tag, ...headers }) : undefined;
}
