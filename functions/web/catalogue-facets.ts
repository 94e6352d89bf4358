import type { PublishedEntry } from "../entry/published-entry.js";

export interface CatalogueFacets {
  /** Every tool type, sorted. */
  types: string[];
  /** The most used tags, most used first. */
  tags: string[];
}

/** Tags suggested in the tag field: enough to browse by, few enough to keep the page small. */
const SUGGESTED_TAGS = 50;

const memo = new WeakMap<readonly PublishedEntry[], CatalogueFacets>();

/** The filters' choices, computed once per catalog state (`allLatest` hands back the same array until it changes). */
export function catalogueFacets(entries: readonly PublishedEntry[]): CatalogueFacets {
  let facets = memo.get(entries);
  if (!facets) {
    const types = new Set<string>();
    const tagCounts = new Map<string, number>();
    for (const entry of entries) {
      if (entry.tool_type) types.add(entry.tool_type);
      for (const tag of entry.tool_tags) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
    }
    const tags = [...tagCounts].sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : 1)).slice(0, SUGGESTED_TAGS);
    facets = { types: [...types].sort(), tags: tags.map(([tag]) => tag) };
    memo.set(entries, facets);
  }
  return facets;
}
