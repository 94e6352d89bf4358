import { publicReadCacheControl } from "../http/edge-cache.js";
import { jsonText } from "../http/json-text.js";
import { boundedPage, MAX_PAGE_BYTES } from "../listing/bounded-page.js";
import { setNextPageLink } from "../listing/next-page-link.js";
import { listingScope } from "../listing/page-cursor.js";
import { registryCursors } from "../listing/registry-cursors.js";
import { catalogSearchFor } from "../search/catalog-search-for.js";
import { assertSearchRuntime } from "../search/search-runtime.js";
import { MAX_SEARCH_DEPTH, parseSearchQuery } from "../search/search-query.js";
import type { CatalogDeps } from "../catalog-deps.js";
import type { RouteModule } from "../route-module.js";

/**
 * `GET /tools/search?q=&limit=&type=&tag=&cursor=`: ranked results over the latest entries, as
 * `{"results": [...], "next_cursor": "…"}` (also in `Link: rel="next"`) while more matches rank
 * within the first `MAX_SEARCH_DEPTH`. The index lives as long as the app (warm across Lambda
 * invocations): a cold instance starts from the stored snapshot, then follows the revision log.
 */
export const searchRoute: RouteModule<CatalogDeps> = (app, deps) => {
  const cursors = registryCursors(deps.config);
  const search = catalogSearchFor(deps);
  app.get("/tools/search", async (c) => {
    assertSearchRuntime();
    const query = parseSearchQuery((name) => c.req.query(name));
    const scope = listingScope("/tools/search", { q: query.q, type: query.type, tag: query.tag });
    const cursor = c.req.query("cursor");
    const offset = cursor === undefined || cursor === "" ? 0 : Number(await cursors.decode(scope, cursor, isOffset));
    const depth = Math.min(offset + query.limit, MAX_SEARCH_DEPTH);
    // One more than the page, to know whether another page follows.
    const hits = (await search.search({ ...query, limit: depth + 1 })).slice(offset);
    const page = boundedPage(hits.slice(0, depth - offset + 1), (hit) => JSON.stringify(hit), {
      limit: depth - offset,
      maxBytes: MAX_PAGE_BYTES - 64,
    });
    const nextOffset = offset + page.items.length;
    c.header("Cache-Control", publicReadCacheControl(deps.config));
    if (!page.more || nextOffset >= MAX_SEARCH_DEPTH) return jsonText(c, `{"results":${page.json}}`);
    const next = await cursors.encode(scope, String(nextOffset));
    setNextPageLink(c, deps.config, next);
    return jsonText(c, `{"results":${page.json},"next_cursor":${JSON.stringify(next)}}`);
  });
};

/** A position in ranked results: a whole number of hits already served, below the search depth. */
function isOffset(after: string): boolean {
  return /^\d{1,7}$/.test(after) && Number(after) < MAX_SEARCH_DEPTH;
}
