// The per-term score cache (functions/search/term-scores.ts): its top rows are the query
// likelihood summed by brute force over the same postings; it stays within its byte budget; and a
// write patches it in place, reading nothing again, so that it ranks as a cache built afresh
// after the write does (and an index kept by writes as a fresh build of the same tools).
import { describe, expect, it } from "vitest";
import type { Postings } from "../../../functions/search/inverted-index.js";
import { termEvidence } from "../../../functions/search/query-likelihood.js";
import {
  SCORE_DRIFT,
  TermScores,
  type QueryTerm,
  type RowKeys,
  type TermSource,
  type WeightedTerm,
} from "../../../functions/search/term-scores.js";
import { ToolSearchIndex } from "../../../functions/search/tool-search-index.js";
import { LABELLED_QUERIES, relevanceCatalog } from "./relevance-catalog.js";

const WORDS = ["pdf", "image", "text", "json", "csv", "merge", "split", "resize", "count", "word"];

/** Postings as a test keeps them: key → rowid → half-units; rows' lengths; every lookup recorded. */
class Catalogue implements TermSource {
  readonly rows = new Map<number, RowKeys>();
  readonly loads: string[] = [];
  manPageLimit = Number.POSITIVE_INFINITY;

  postings(key: string): Postings {
    this.loads.push(key);
    const found = [...this.rows]
      .flatMap(([rowid, keys]) => {
        const units = (keys.short.get(key) ?? 0) + (keys.man.get(key) ?? 0);
        return units > 0 ? [[rowid, units] as const] : [];
      })
      .sort((a, b) => a[0] - b[0]);
    return { rowids: Int32Array.from(found, ([rowid]) => rowid), units: Uint32Array.from(found, ([, units]) => units) };
  }

  documents(key: string): number {
    return [...this.rows.values()].filter((keys) => keys.short.has(key) || keys.man.has(key)).length;
  }

  manPagesCount(manDocuments: number): boolean {
    return manDocuments <= this.manPageLimit;
  }

  statistics() {
    let totalLength = 0;
    for (const keys of this.rows.values()) for (const units of [...keys.short.values(), ...keys.man.values()]) totalLength += units / 2;
    return { totalLength };
  }

  /** What the brute force gives: each row's sum of weight × evidence, best `limit` first. */
  expected(terms: readonly WeightedTerm[], limit: number): { rowid: number; score: number }[] {
    const { totalLength } = this.statistics();
    const sums = new Map<number, number>();
    for (const [term, weight] of terms) {
      const counts = [...this.rows].map(([rowid, keys]) => {
        const short =
          (keys.short.get(`s:${term.stemmed}`) ?? 0) + (term.light === undefined ? 0 : (keys.short.get(`n:${term.light}`) ?? 0));
        const man = keys.man.get(`m:${term.stemmed}`) ?? 0;
        const manCounts = this.manPagesCount([...this.rows.values()].filter((row) => row.man.has(`m:${term.stemmed}`)).length);
        return [rowid, (short + (manCounts ? man : 0)) / 2] as const;
      });
      const total = counts.reduce((sum, [, count]) => sum + count, 0);
      for (const [rowid, count] of counts) {
        if (count > 0) sums.set(rowid, (sums.get(rowid) ?? 0) + weight * termEvidence(count, total / Math.max(totalLength, total)));
      }
    }
    return [...sums]
      .map(([rowid, score]) => ({ rowid, score }))
      .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
      .slice(0, limit);
  }
}

/** Row `row` of a deterministic catalogue: a few words in its name, more in its other fields and man page. */
function rowKeys(row: number, salt = 0): RowKeys {
  const pick = (seed: number, count: number) => Array.from({ length: count }, (_, i) => WORDS[(row * seed + i * i + salt) % WORDS.length]!);
  const short = new Map<string, number>();
  const man = new Map<string, number>();
  for (const word of pick(7, 1 + (row % 3))) {
    short.set(`n:${word}`, (short.get(`n:${word}`) ?? 0) + 4);
    short.set(`s:${word}`, (short.get(`s:${word}`) ?? 0) + 2);
  }
  for (const word of pick(13, 2 + (row % 11))) short.set(`s:${word}`, (short.get(`s:${word}`) ?? 0) + 4);
  for (const word of pick(5, row % 4)) man.set(`m:${word}`, (man.get(`m:${word}`) ?? 0) + 2);
  return { short, man };
}

const term = (word: string): QueryTerm => ({ stemmed: word, light: word });
const QUERIES: WeightedTerm[][] = [
  [[term("pdf"), 1]],
  [
    [term("pdf"), 1],
    [term("merge"), 1],
  ],
  [
    [term("json"), 1],
    [term("csv"), 1.7],
    [{ stemmed: "count" }, 0.5],
    [term("word"), 1],
  ],
  WORDS.map((word) => [term(word), 1] as const),
];

function catalogue(rows: number): Catalogue {
  const built = new Catalogue();
  for (let row = 1; row <= rows; row++) built.rows.set(row, rowKeys(row));
  return built;
}

function expectSameRanking(actual: { rowid: number; score: number }[], expected: { rowid: number; score: number }[]) {
  expect(actual.map((row) => row.rowid)).toEqual(expected.map((row) => row.rowid));
  for (const [i, row] of actual.entries()) expect(row.score).toBeCloseTo(expected[i]!.score, 9);
}

describe("TermScores", () => {
  it.each(QUERIES.map((terms) => [terms.map(([t]) => t.stemmed).join(" "), terms] as const))(
    "ranks %j as the brute-force sum does",
    (_name, terms) => {
      const source = catalogue(400);
      source.manPageLimit = 150;
      const scores = new TermScores(source);
      for (const limit of [1, 10, 200])
        expectSameRanking(
          scores.top(terms, limit, () => true),
          source.expected(terms, limit),
        );
    },
  );

  it("filters before taking the best rows, and answers nothing for a term no row holds", () => {
    const source = catalogue(400);
    const scores = new TermScores(source);
    const terms = QUERIES[1]!;
    const even = scores.top(terms, 20, (rowid) => rowid % 2 === 0);
    expectSameRanking(
      even,
      source
        .expected(terms, 400)
        .filter((row) => row.rowid % 2 === 0)
        .slice(0, 20),
    );
    expect(scores.top([[term("absent"), 1]], 10, () => true)).toEqual([]);
    expect(scores.top(QUERIES[0]!, 0, () => true)).toEqual([]);
  });

  it("is patched by writes, reading nothing again, and ranks as a cache built after them", () => {
    const source = catalogue(300);
    const scores = new TermScores(source);
    for (const terms of QUERIES) scores.top(terms, 50, () => true);
    source.loads.length = 0;
    const change = (rowid: number, after: RowKeys | undefined) => {
      const before = source.rows.get(rowid);
      if (after === undefined) source.rows.delete(rowid);
      else source.rows.set(rowid, after);
      scores.rowChanged(rowid, before, after, -1, -1);
    };
    // New rows, edited rows (other words), removed rows, a row removed and added back.
    for (let row = 301; row <= 340; row++) change(row, rowKeys(row));
    for (let row = 1; row <= 60; row += 3) change(row, rowKeys(row, 5));
    for (let row = 100; row <= 130; row += 2) change(row, undefined);
    change(7, undefined);
    change(7, rowKeys(7, 2));
    const patched = QUERIES.map((terms) => scores.top(terms, 50, () => true));
    expect(source.loads).toEqual([]);
    const fresh = new TermScores(source);
    for (const [i, terms] of QUERIES.entries()) {
      // The same scores rank by rank, each row's its own, within what a share older by at most
      // SCORE_DRIFT moves a score (rows of nearly equal scores may swap).
      const exact = new Map(source.expected(terms, 400).map((row) => [row.rowid, row.score]));
      const built = fresh.top(terms, 50, () => true);
      const tolerance = SCORE_DRIFT * terms.reduce((sum, [, weight]) => sum + weight, 0);
      for (const [rank, row] of patched[i]!.entries()) {
        expect(Math.abs(row.score - built[rank]!.score)).toBeLessThan(tolerance);
        expect(Math.abs(row.score - exact.get(row.rowid)!)).toBeLessThan(tolerance);
      }
    }
  });

  it("keeps within its byte budget, dropping the least recently used term first", () => {
    const source = catalogue(100);
    // Room for two terms of about 100 postings (256 + 1,600 bytes each), not three.
    const scores = new TermScores(source, 4_000);
    const read = (word: string) => scores.top([[{ stemmed: word }, 1]], 5, () => true);
    for (const word of ["pdf", "image", "pdf", "merge"]) read(word);
    // "pdf" was used again before "merge": "image" went
    expect(source.loads).toEqual(["s:pdf", "m:pdf", "s:image", "m:image", "s:merge", "m:merge"]);
    read("pdf");
    read("image");
    expect(source.loads.slice(6)).toEqual(["s:image", "m:image"]);
  });

  it("does not keep terms that no row holds", () => {
    const source = catalogue(10);
    const scores = new TermScores(source);
    for (let i = 0; i < 3; i++) expect(scores.top([[term("none-such"), 1]], 5, () => true)).toEqual([]);
    expect(source.loads.filter((key) => key === "s:none-such")).toHaveLength(3);
  });
});

describe("an index kept by writes", () => {
  const tools = relevanceCatalog().map((tool) => ({ ...tool, version: "1.0.0" }));
  const ranking = (index: ToolSearchIndex, q: string) => index.search({ q, limit: 10 }).map((hit) => [hit.tool_id, hit.score] as const);

  it("ranks as a fresh build of the same tools, and a search right after a write sees it", () => {
    const index = ToolSearchIndex.build(tools.slice(0, 80));
    for (const [q] of LABELLED_QUERIES) ranking(index, q);
    const [first, second] = tools;
    expect(ranking(index, "okapi")).toEqual([]);
    index.upsert({ ...second!, tool_search_description: `Okapi ${first!.tool_search_description}` });
    expect(ranking(index, "okapi").map(([id]) => id)).toEqual([second!.tool_id]);
    for (const tool of tools.slice(80)) index.upsert(tool);
    index.upsert({ ...tools[5]!, tool_type: "media", tool_search_description: "Trims and joins recordings" });
    for (const tool of tools.slice(20, 30)) index.remove(tool.tool_id);
    const final = new Map(tools.map((tool) => [tool.tool_id, tool]));
    final.set(second!.tool_id, { ...second!, tool_search_description: `Okapi ${first!.tool_search_description}` });
    final.set(tools[5]!.tool_id, { ...tools[5]!, tool_type: "media", tool_search_description: "Trims and joins recordings" });
    for (const tool of tools.slice(20, 30)) final.delete(tool.tool_id);
    const fresh = ToolSearchIndex.build(final.values());
    for (const [q] of [...LABELLED_QUERIES, ["okapi"], ["trim recordings"]]) {
      const kept = ranking(index, q!);
      const built = ranking(fresh, q!);
      expect(
        kept.map(([id]) => id),
        q,
      ).toEqual(built.map(([id]) => id));
      for (const [i, [, score]] of kept.entries()) expect(score / built[i]![1], q).toBeCloseTo(1, 2);
    }
    expect(ranking(index, tools[25]!.tool_search_description).map(([id]) => id)).not.toContain(tools[25]!.tool_id);
  });
});
