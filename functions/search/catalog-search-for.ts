import type { CatalogDeps } from "../catalog-deps.js";
import type { CatalogReader } from "../catalog/catalog-reader.js";
import { CatalogSearch } from "./catalog-search.js";
import { HybridSearch } from "./hybrid-search.js";
import { searchSources } from "./search-sources.js";

const searches = new WeakMap<CatalogReader, CatalogSearch>();

/**
 * The search index of this registry's catalog: one per process, shared by every route that
 * searches (`GET /tools/search`, the web catalogue), so they rank alike and it is loaded once. It
 * starts from the stored snapshot, follows the revision log, and hears this process's writes.
 */
export function catalogSearchFor(deps: Pick<CatalogDeps, "config" | "entries" | "reader" | "embedder">): CatalogSearch {
  let search = searches.get(deps.reader);
  if (!search) {
    const hybrid = deps.embedder === undefined ? undefined : new HybridSearch(deps.embedder);
    const created = new CatalogSearch(searchSources(deps), deps.config.cacheRevalidateMs, hybrid);
    deps.reader.onChange(() => created.changed());
    searches.set(deps.reader, created);
    search = created;
  }
  return search;
}
