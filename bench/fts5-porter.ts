/**
 * The off-the-shelf engine the registry's search is measured against: SQLite FTS5 with the porter
 * stemmer over one column of each tool's whole text, ranked by FTS5's own bm25, a query being
 * any of its words (`"w1" OR "w2" …`: FTS5's default, all words, finds nothing for most long
 * requests). In memory, or in a file (to measure opening it cold: bench/search-cold-start.bench.ts).
 */
import { SqliteDatabase } from "../functions/search/sqlite-driver.js";

const SCHEMA = `
  CREATE VIRTUAL TABLE docs USING fts5 (body, tokenize = 'porter unicode61 remove_diacritics 2');
  CREATE TABLE ids (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL);
`;

export class Fts5Porter {
  private readonly search_;

  private constructor(private readonly db: SqliteDatabase) {
    this.search_ = db.prepare<{ id: string }>(
      "SELECT ids.id AS id FROM docs JOIN ids ON ids.rowid = docs.rowid WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT ?",
    );
  }

  /** An index of `documents` ([id, text]), in memory, or written to `file` and open from it. */
  static build(documents: Iterable<readonly [string, string]>, file?: string): Fts5Porter {
    const db = file === undefined ? SqliteDatabase.inMemory() : SqliteDatabase.openFile(file);
    db.exec(SCHEMA);
    const insertDoc = db.prepare("INSERT INTO docs (rowid, body) VALUES (?, ?)");
    const insertId = db.prepare("INSERT INTO ids (rowid, id) VALUES (?, ?)");
    db.transaction(() => {
      let rowid = 0;
      for (const [id, text] of documents) {
        rowid++;
        insertDoc.run(rowid, text);
        insertId.run(rowid, id);
      }
    });
    return new Fts5Porter(db);
  }

  /** The index a file written by `build` holds. */
  static open(file: string): Fts5Porter {
    return new Fts5Porter(SqliteDatabase.openFile(file));
  }

  /** The ids of the best `limit` documents for any of the query's words. */
  search(q: string, limit: number): string[] {
    const words = [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}]+/u))].filter((word) => word !== "");
    if (words.length === 0) return [];
    return this.search_.all(words.map((word) => `"${word}"`).join(" OR "), limit).map((row) => row.id);
  }

  close(): void {
    this.db.close();
  }
}
