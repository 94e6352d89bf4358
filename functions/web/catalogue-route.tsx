import { publicReadCacheControl } from "../http/edge-cache.js";
import type { RouteModule } from "../route-module.js";
import { catalogSearchFor } from "../search/catalog-search-for.js";
import { assertSearchRuntime } from "../search/search-runtime.js";
import type { ToolSummary } from "../search/search-document.js";
import { catalogueFacets } from "./catalogue-facets.js";
import { catalogueResults } from "./catalogue-results.js";
import { MAX_SEARCH_DEPTH, PAGE_SIZE, parseCatalogueParams, searchQueryFor } from "./catalogue-query.js";
import { getPage, sendPage } from "./send-page.js";
import { CataloguePage } from "./views/catalogue-page.js";

/**
 * `/`: with words, the ranked results of `GET /tools/search` (the same index, shared in process);
 * without, every latest tool by id. Type and tag filter both; pages of PAGE_SIZE.
 */
export const catalogueRoute: RouteModule = (app, deps) => {
  const search = catalogSearchFor(deps);
  getPage(app, "/", async (c) => {
    const params = parseCatalogueParams((name) => c.req.query(name));
    const entries = await deps.reader.allLatest();
    const from = (params.page - 1) * PAGE_SIZE;
    let matches: readonly ToolSummary[];
    let capped = false;
    if (params.q !== undefined) {
      assertSearchRuntime();
      const ranked = await search.search(searchQueryFor({ ...params, q: params.q }));
      capped = ranked.length > MAX_SEARCH_DEPTH;
      matches = ranked.slice(0, MAX_SEARCH_DEPTH);
    } else {
      matches = entries.filter(
        (entry) =>
          (params.type === undefined || entry.tool_type === params.type) &&
          (params.tag === undefined || entry.tool_tags.includes(params.tag)),
      );
    }
    const page = catalogueResults(matches.slice(from, from + PAGE_SIZE), entries);
    const hasNextPage = matches.length > from + PAGE_SIZE;
    const { types, tags } = catalogueFacets(entries);
    return sendPage(
      c,
      <CataloguePage
        params={params}
        results={page}
        hasNextPage={hasNextPage}
        types={types}
        tags={tags}
        limitNote={
          capped && !hasNextPage
            ? `A search shows its ${MAX_SEARCH_DEPTH} best matches at most; add words or a filter to narrow it.`
            : undefined
        }
        count={{ first: from + 1, shown: page.length, total: matches.length, capped, search: params.q !== undefined }}
      />,
      { cacheControl: publicReadCacheControl(deps.config) },
    );
  });
};
