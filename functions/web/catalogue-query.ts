import { HttpProblem } from "../http-problem.js";
import { MAX_SEARCH_DEPTH, parseSearchQuery, type SearchQuery } from "../search/search-query.js";
import type { CatalogueParams } from "./web-paths.js";

/** Results per catalogue page. */
export const PAGE_SIZE = 20;
/** Catalogue pages reachable without a query (beyond this, a filter narrows the list faster). */
export const MAX_PAGE = 1000;
/** A search ranks at most MAX_SEARCH_DEPTH matches, like `GET /tools/search`. */
export { MAX_SEARCH_DEPTH };

export type CatalogueRequest = CatalogueParams & { page: number };

/** `/?q=&type=&tag=&page=`: empty fields mean "no filter"; a bad one is a 400 that says how to fix it. */
export function parseCatalogueParams(read: (name: string) => string | undefined): CatalogueRequest {
  const given = (name: string) => {
    const value = read(name)?.trim();
    return value ? value : undefined;
  };
  const params: CatalogueRequest = { page: parsePage(read("page")) };
  const q = given("q");
  const type = given("type");
  const tag = given("tag");
  if (q !== undefined) params.q = q;
  if (type !== undefined) params.type = type;
  if (tag !== undefined) params.tag = tag;
  return params;
}

/**
 * The search for every match a page can show, and one more (to know whether the ranking was cut
 * at MAX_SEARCH_DEPTH), so the page can say how many there are; checked and bounded like
 * `GET /tools/search?q=&type=&tag=` with cursors.
 */
export function searchQueryFor(params: CatalogueRequest & { q: string }): SearchQuery {
  const values: Record<string, string | undefined> = { q: params.q, type: params.type, tag: params.tag, limit: String(PAGE_SIZE) };
  const query = parseSearchQuery((name) => values[name]);
  return { ...query, limit: MAX_SEARCH_DEPTH + 1 };
}

function parsePage(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 1;
  const page = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(page >= 1 && page <= MAX_PAGE)) {
    throw new HttpProblem(
      400,
      "Invalid page",
      `page must be a whole number from 1 to ${MAX_PAGE}, got ${JSON.stringify(raw.slice(0, 20))}.`,
    );
  }
  return page;
}
