import { CatalogSearch } from "../search/catalog-search.js";
import { parseSearchQuery } from "../search/search-query.js";
import type { RouteModule } from "./route-module.js";

/**
 * `GET /tools/search?q=&limit=&type=&tag=`: ranked results over the latest entries. The index lives
 * as long as the app (warm across Lambda invocations) and follows the catalog through the reader.
 */
export const searchRoute: RouteModule = (app, deps) => {
  const search = new CatalogSearch(
    () => deps.reader.allLatest(),
    (previous, current) => deps.reader.latestDelta(previous, current),
  );
  app.get("/tools/search", async (c) => {
    const query = parseSearchQuery((name) => c.req.query(name));
    return c.json({ results: await search.search(query) });
  });
};
