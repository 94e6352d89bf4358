// The per-term score cache against FTS5 itself: its top rows are the ones FTS5 ranks first for the
// same terms OR'ed, with the same scores; and the index drops it on every write.
import { describe, expect, it } from "vitest";
import { SqliteDatabase } from "../../../functions/search/sqlite-driver.js";
import { TermScores, type ScoredRow } from "../../../functions/search/term-scores.js";
import { ToolSearchIndex } from "../../../functions/search/tool-search-index.js";
import { relevanceCatalog } from "./relevance-catalog.js";

const WORDS = ["pdf", "image", "text", "json", "csv", "merge", "split", "resize", "count", "words"];

/** A weighted two-column FTS5 table of 400 rows with overlapping words and varied lengths. */
function table(): SqliteDatabase {
  const db = SqliteDatabase.inMemory();
  db.exec("CREATE VIRTUAL TABLE docs USING fts5 (title, body, content = '', contentless_delete = 1)");
  db.exec("INSERT INTO docs (docs, rank) VALUES ('rank', 'bm25(3, 1)')");
  const insert = db.prepare("INSERT INTO docs (rowid, title, body) VALUES (?, ?, ?)");
  db.transaction(() => {
    for (let row = 1; row <= 400; row++) {
      const pick = (seed: number, count: number) =>
        Array.from({ length: count }, (_, i) => WORDS[(row * seed + i * i) % WORDS.length]).join(" ");
      insert.run(row, pick(7, 1 + (row % 3)), `${pick(13, 2 + (row % 11))} filler${row % 5}`);
    }
  });
  // Deleted rows leave the statistics as FTS5 keeps them after deletes.
  for (const row of [3, 50, 51, 399]) db.prepare("DELETE FROM docs WHERE rowid = ?").run(row);
  return db;
}

const fts5Top = (db: SqliteDatabase, terms: string[], limit: number) =>
  db
    .prepare<ScoredRow>("SELECT rowid, -rank AS score FROM docs WHERE docs MATCH ? ORDER BY rank, rowid LIMIT ?")
    .all(terms.map((term) => `"${term}"`).join(" OR "), limit);

describe("TermScores", () => {
  const db = table();
  const loads: string[] = [];
  const scores = new TermScores((name, term) => {
    loads.push(term);
    return db.prepare<ScoredRow>(`SELECT rowid, -rank AS score FROM ${name} WHERE ${name} MATCH ?`).all(`"${term}"`);
  });

  it.each([[["pdf"]], [["pdf", "merge"]], [["json", "csv", "count", "words"]], [["text", "text", "image"]], [WORDS]])(
    "ranks %j as FTS5's OR query does",
    (terms) => {
      for (const limit of [1, 10, 200]) {
        const expected = fts5Top(db, [...new Set(terms)], limit);
        const actual = scores.top("docs", terms, limit, () => true);
        expect(actual.map((row) => row.rowid)).toEqual(expected.map((row) => row.rowid));
        for (const [i, row] of actual.entries()) expect(row.score).toBeCloseTo(expected[i]!.score, 9);
      }
    },
  );

  it("filters before taking the best rows", () => {
    const even = scores.top("docs", ["pdf", "resize"], 20, (rowid) => rowid % 2 === 0);
    const expected = fts5Top(db, ["pdf", "resize"], 400)
      .filter((row) => row.rowid % 2 === 0)
      .slice(0, 20);
    expect(even.map((row) => row.rowid)).toEqual(expected.map((row) => row.rowid));
  });

  it("answers nothing for a term no row holds, and a limit of 0 with no rows", () => {
    expect(scores.top("docs", ["absent"], 10, () => true)).toEqual([]);
    expect(scores.top("docs", ["pdf"], 0, () => true)).toEqual([]);
  });

  it("reads each term from FTS5 once until cleared", () => {
    loads.length = 0;
    scores.top("docs", ["split", "merge"], 5, () => true);
    scores.top("docs", ["merge", "split"], 5, () => true);
    expect(loads).toEqual([]); // both were read by the tests above
    scores.clear();
    scores.top("docs", ["merge"], 5, () => true);
    expect(loads).toEqual(["merge"]);
  });
});

describe("TermScores under a stream of distinct terms (a client sending every word it can think of)", () => {
  const loader = () => {
    const loads: string[] = [];
    const load = (_table: string, term: string) => {
      loads.push(term);
      return term.startsWith("none") ? [] : Array.from({ length: 100 }, (_, i) => ({ rowid: i + 1, score: 1 + i / 100 }));
    };
    return { loads, load };
  };

  it("keeps within its byte budget, dropping the least recently used term first", () => {
    const { loads, load } = loader();
    // Room for two terms of 100 postings (256 + 1,600 bytes each), not three.
    const scores = new TermScores(load, 4_000);
    for (const term of ["a", "b", "a", "c"]) scores.top("t", [term], 5, () => true);
    expect(loads).toEqual(["a", "b", "c"]); // "a" was used again before "c" came: "b" went
    scores.top("t", ["a"], 5, () => true);
    scores.top("t", ["b"], 5, () => true);
    expect(loads).toEqual(["a", "b", "c", "b"]);
    for (let i = 0; i < 10_000; i++) scores.top("t", [`w${i}`], 5, () => true);
    scores.top("t", ["w9999"], 5, () => true);
    expect(loads.at(-1)).toBe("w9999"); // read once: the newest stays
    expect(loads).toHaveLength(4 + 10_000);
  });

  it("does not keep terms that no row holds", () => {
    const { loads, load } = loader();
    const scores = new TermScores(load);
    for (let i = 0; i < 3; i++) expect(scores.top("t", ["none-such"], 5, () => true)).toEqual([]);
    expect(loads).toEqual(["none-such", "none-such", "none-such"]);
  });
});

describe("the index's cached scores", () => {
  it("are dropped by every write, so a search right after sees it", () => {
    const tools = relevanceCatalog().map((tool) => ({ ...tool, version: "1.0.0" }));
    const index = ToolSearchIndex.build(tools);
    const [first, second] = tools;
    const ids = (q: string) => index.search({ q, limit: 5 }).map((hit) => hit.tool_id);
    expect(ids("okapi")).toEqual([]);
    const before = ids(first!.tool_search_description);
    expect(before[0]).toBe(first!.tool_id);

    index.upsert({ ...second!, tool_search_description: `Okapi ${first!.tool_search_description}` });
    expect(ids("okapi")).toEqual([second!.tool_id]);
    expect(ids(first!.tool_search_description)).toContain(second!.tool_id);

    index.remove(second!.tool_id);
    expect(ids("okapi")).toEqual([]);
    expect(ids(first!.tool_search_description)).not.toContain(second!.tool_id);
  });
});
