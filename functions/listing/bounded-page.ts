import { HttpProblem } from "../http-problem.js";

/**
 * Every listing answers at most this many items by default and at most: enough for a client that
 * reads one `GET /tools` without parameters (the Python client's `list_all_tools()`, docs/design/compatibility.md) to
 * see a catalogue of 1,000 tools, yet bounded so a page is one reasonable response.
 */
export const MAX_PAGE_ITEMS = 1000;

/**
 * A page body stays below this many bytes as it travels inside a Lambda response (a JSON string in
 * the invocation's JSON result, so quotes and backslashes count twice): under Lambda's 6 MB
 * response limit with room for the headers and the envelope.
 */
export const MAX_PAGE_BYTES = 5_000_000;

export interface PageBounds {
  limit: number;
  maxBytes: number;
}

export interface BoundedPage<T> {
  /** The page as a JSON array. */
  json: string;
  items: T[];
  /** Whether items remain past this page (then the last item is where the next page starts). */
  more: boolean;
}

/**
 * The first items that fit `bounds`, as one JSON array. A page always holds at least one item,
 * so paging always progresses (entries are far below the byte bound: see the upload limits).
 */
export function boundedPage<T>(source: Iterable<T>, toJson: (item: T) => string, bounds: PageBounds): BoundedPage<T> {
  const items: T[] = [];
  const parts: string[] = [];
  let bytes = 2;
  for (const item of source) {
    if (items.length === bounds.limit) return page(items, parts, true);
    const json = toJson(item);
    const size = lambdaBodyBytes(json) + (items.length > 0 ? 1 : 0);
    if (items.length > 0 && bytes + size > bounds.maxBytes) return page(items, parts, true);
    items.push(item);
    parts.push(json);
    bytes += size;
  }
  return page(items, parts, false);
}

function page<T>(items: T[], parts: string[], more: boolean): BoundedPage<T> {
  return { json: `[${parts.join(",")}]`, items, more };
}

/** The bytes `text` takes once escaped as a JSON string (how a Lambda response carries a body). */
export function lambdaBodyBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), "utf8") - 2;
}

/** `limit` from a query string: a whole number from 1 to `max`, or `fallback` when absent. */
export function parsePageLimit(raw: string | undefined, max: number, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const limit = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= max)) {
    throw new HttpProblem(400, "Invalid limit", `limit must be an integer from 1 to ${max}, got "${raw.slice(0, 40)}".`);
  }
  return limit;
}
