// The in-process index follows catalog changes incrementally and ranks as a fresh build would.
import { describe, expect, it } from "vitest";
import { CatalogSearch } from "../../functions/search/catalog-search.js";
import { ToolSearchIndex } from "../../functions/search/tool-search-index.js";
import { LABELLED_QUERIES, relevanceCatalog } from "./relevance-catalog.js";

const published = relevanceCatalog().map((tool) => ({ ...tool, version: "1.0.0", published_at: "t0", updated_at: "t0" }));
type Entry = (typeof published)[number];

const topIds = (search: (q: string) => { tool_id: string }[]) =>
  LABELLED_QUERIES.map(([query]) => search(query).map((hit) => hit.tool_id));

/** Changes `count` tools, removes two and adds two: what a burst of uploads, PUTs and deletes does. */
function mutate(entries: Entry[], count: number): Entry[] {
  const changed = entries.slice(2).map((entry, index) =>
    index < count ? { ...entry, tool_search_description: `${entry.tool_search_description} quickly`, updated_at: "t1" } : entry,
  );
  return [
    ...changed,
    { ...published[0]!, tool_id: "word-counter", published_at: "t1", updated_at: "t1" },
    { ...published[1]!, tool_id: "article-digest", published_at: "t1", updated_at: "t1" },
  ];
}

describe("CatalogSearch", () => {
  it.each([
    ["a few tools changed (updated in place)", 5],
    ["most tools changed (rebuilt)", 80],
  ])("%s: ranks exactly as an index built from scratch", async (_, count) => {
    let current: Entry[] = published;
    const search = new CatalogSearch(async () => current);
    await search.search({ q: "warm up", limit: 1 });
    current = mutate(published, count);

    const incremental = await Promise.all(LABELLED_QUERIES.map(([q]) => search.search({ q, limit: 5 })));
    const fresh = ToolSearchIndex.build(current);
    expect(incremental.map((hits) => hits.map((hit) => hit.tool_id))).toEqual(topIds((q) => fresh.search({ q, limit: 5 })));
    expect((await search.search({ q: "word counter", limit: 1 }))[0]?.tool_id).toBe("word-counter");
    expect(await search.search({ q: published[0]!.tool_id, limit: 100 })).not.toContainEqual(
      expect.objectContaining({ tool_id: published[0]!.tool_id }),
    );
  });

  it("notices a re-published tool with the same version (deleted, then uploaded again)", async () => {
    let current: Entry[] = published;
    const search = new CatalogSearch(async () => current);
    expect((await search.search({ q: "barcode", limit: 1 }))[0]?.tool_id).toBe("barcode-reader");
    current = published.map((entry) =>
      entry.tool_id === "barcode-reader" ? { ...entry, tool_search_description: "Reads magnetic stripes", published_at: "t2", updated_at: "t2" } : entry,
    );
    expect((await search.search({ q: "magnetic", limit: 1 }))[0]?.tool_id).toBe("barcode-reader");
  });

  it("with a delta for the new array, updates just those tools and ranks as a fresh build", async () => {
    let current: Entry[] = published;
    let delta: { from: Entry[]; to: Entry[]; upserted: Entry[]; removed: string[] } | undefined;
    const search = new CatalogSearch(
      async () => current,
      (previous, next) => (delta?.from === previous && delta.to === next ? delta : undefined),
    );
    await search.search({ q: "warm up", limit: 1 });
    const edited = { ...published[3]!, tool_search_description: "Translates whale songs", updated_at: "t1" };
    const added = { ...published[0]!, tool_id: "aardvark-finder", published_at: "t1", updated_at: "t1" };
    // The array also carries a change the delta does not name: trusted, it is not diffed for.
    const unnamed = { ...published[5]!, tool_search_description: "Unnamed change", updated_at: "t1" };
    const next = [added, ...published.slice(1).map((entry, index) => (index === 2 ? edited : index === 4 ? unnamed : entry))];
    delta = { from: published, to: next, upserted: [edited, added], removed: [published[0]!.tool_id] };
    current = next;

    expect((await search.search({ q: "whale songs", limit: 1 }))[0]?.tool_id).toBe(edited.tool_id);
    expect(await search.search({ q: "unnamed", limit: 5 })).toEqual([]);
    const expected = ToolSearchIndex.build(next.map((entry) => (entry === unnamed ? published[5]! : entry)));
    const incremental = await Promise.all(LABELLED_QUERIES.map(([q]) => search.search({ q, limit: 5 })));
    expect(incremental.map((hits) => hits.map((hit) => hit.tool_id))).toEqual(topIds((q) => expected.search({ q, limit: 5 })));
  });
});
