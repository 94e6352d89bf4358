import type { Context } from "hono";
import type { CatalogDeps } from "../catalog-deps.js";
import { presentEntryJson } from "../catalog/present-entry.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { requestOrigin } from "../http/request-origin.js";
import { boundedPage, MAX_PAGE_BYTES } from "../listing/bounded-page.js";
import { setNextPageLink } from "../listing/next-page-link.js";
import type { PageCursors } from "../listing/page-cursor.js";
import { indexAfter, matchingFrom } from "../listing/sorted-entries.js";
import { isToolId } from "../validate/tool-id.js";

/** Which latest entries a listing route pages through, and how its cursors are bound to the request. */
export interface LatestEntriesQuery {
  cursors: PageCursors;
  /** The request's listing scope (`listingScope`): a cursor is only good for the same path and parameters. */
  scope: string;
  limit: number;
  matches: (entry: PublishedEntry) => boolean;
}

/**
 * One bounded page of the latest entries that match, in tool id order after the request's `cursor`
 * (a tool id), as the JSON array to send; the next page's link is set when there is more.
 */
export async function latestEntriesPage(c: Context, deps: CatalogDeps, query: LatestEntriesQuery): Promise<string> {
  const { cursors, scope } = query;
  const cursor = c.req.query("cursor");
  const after = cursor === undefined || cursor === "" ? undefined : await cursors.decode(scope, cursor, isToolId);
  const entries = await deps.reader.allLatest();
  const start = after === undefined ? 0 : indexAfter(entries, after);
  const origin = requestOrigin(c, deps.config);
  const page = boundedPage(matchingFrom(entries, start, query.matches), (entry) => presentEntryJson(entry, origin), {
    limit: query.limit,
    maxBytes: MAX_PAGE_BYTES,
  });
  const last = page.items.at(-1);
  if (page.more && last !== undefined) setNextPageLink(c, deps.config, await cursors.encode(scope, last.tool_id));
  return page.json;
}
