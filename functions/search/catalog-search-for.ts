import type { CatalogReader } from "../catalog/catalog-reader.js";
import { CatalogSearch } from "./catalog-search.js";

const searches = new WeakMap<CatalogReader, CatalogSearch>();

/**
 * The search index that follows this reader's catalog: one per process, shared by every route
 * that searches (`GET /tools/search`, the web catalogue), so they rank alike and it is built once.
 */
export function catalogSearchFor(reader: CatalogReader): CatalogSearch {
  let search = searches.get(reader);
  if (!search) {
    search = new CatalogSearch(
      () => reader.allLatest(),
      (previous, current) => reader.latestDelta(previous, current),
    );
    searches.set(reader, search);
  }
  return search;
}
