import { HttpProblem } from "../http-problem.js";

export const MAX_QUERY_CHARS = 512;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 100;
/** Ranked results are paged (`cursor`) down to this rank; past it, refine the query instead. */
export const MAX_SEARCH_DEPTH = 100;

/** What a search asks for: the words, how many results, and exact filters. */
export interface SearchQuery {
  q: string;
  limit: number;
  /** Exact `tool_type`. */
  type?: string;
  /** Exact member of `tool_tags`. */
  tag?: string;
}

const INVALID = "Invalid search query";

/** Reads `q`, `limit`, `type` and `tag`; anything a client got wrong is a 400 that says how to fix it. */
export function parseSearchQuery(read: (name: string) => string | undefined): SearchQuery {
  const q = read("q");
  if (q === undefined) throw new HttpProblem(400, INVALID, "GET /tools/search needs ?q=<words>, e.g. ?q=count+words.");
  if (q.trim() === "") throw new HttpProblem(400, INVALID, "q is empty; give at least one word to search for.");
  if ([...q].length > MAX_QUERY_CHARS) {
    throw new HttpProblem(400, INVALID, `q is ${[...q].length} characters long; the limit is ${MAX_QUERY_CHARS}.`);
  }
  const query: SearchQuery = { q, limit: parseLimit(read("limit")) };
  const type = read("type");
  const tag = read("tag");
  if (type !== undefined) query.type = type;
  if (tag !== undefined) query.tag = tag;
  return query;
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SEARCH_LIMIT;
  const limit = /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_SEARCH_LIMIT)) {
    throw new HttpProblem(400, INVALID, `limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT}, got "${raw}".`);
  }
  return limit;
}
