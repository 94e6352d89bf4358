import type { SqliteDatabase } from "./sqlite-driver.js";

/**
 * The tools' vectors inside the search index's database (so a snapshot carries them): one row per
 * tool that has one, with the model that made it. Nearest neighbours are found by an exact scan
 * of the vectors of the query's model (cosine similarity), kept in memory between writes: at
 * 10,000 tools of 1,536 dimensions that is 15 million multiply-adds, a few milliseconds.
 */
export class VectorTable {
  private readonly statements;
  /** Unit vectors of one model, by rowid, until the next write. */
  private cache: { model: string; rowids: number[]; vectors: Float32Array[] } | undefined;

  constructor(db: SqliteDatabase) {
    db.exec("CREATE TABLE IF NOT EXISTS tool_vectors (rowid INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL)");
    this.statements = {
      put: db.prepare("INSERT OR REPLACE INTO tool_vectors (rowid, model, vector) VALUES (?, ?, ?)"),
      delete: db.prepare("DELETE FROM tool_vectors WHERE rowid = ?"),
      ofModel: db.prepare<{ rowid: number; vector: Uint8Array }>("SELECT rowid, vector FROM tool_vectors WHERE model = ?"),
    };
  }

  put(rowid: number, model: string, vector: Float32Array): void {
    this.cache = undefined;
    const unit = normalised(vector);
    this.statements.put.run(rowid, model, new Uint8Array(unit.buffer, unit.byteOffset, unit.byteLength));
  }

  delete(rowid: number): void {
    this.cache = undefined;
    this.statements.delete.run(rowid);
  }

  /** The `limit` rows most similar (cosine above 0) to `vector` among those of `model` that `accept` keeps, best first. */
  nearest(model: string, vector: Float32Array, limit: number, accept: (rowid: number) => boolean): { rowid: number; similarity: number }[] {
    const { rowids, vectors } = this.ofModel(model);
    const query = normalised(vector);
    const scored: { rowid: number; similarity: number }[] = [];
    for (let index = 0; index < rowids.length; index++) {
      const candidate = vectors[index]!;
      if (candidate.length !== query.length || !accept(rowids[index]!)) continue;
      let dot = 0;
      for (let at = 0; at < query.length; at++) dot += query[at]! * candidate[at]!;
      // Nothing in common (orthogonal or opposed) is no match, as a lexical search finds none.
      if (dot > 0) scored.push({ rowid: rowids[index]!, similarity: dot });
    }
    return scored.sort((a, b) => b.similarity - a.similarity || a.rowid - b.rowid).slice(0, limit);
  }

  private ofModel(model: string): { rowids: number[]; vectors: Float32Array[] } {
    if (this.cache?.model !== model) {
      const rows = this.statements.ofModel.all(model);
      this.cache = {
        model,
        rowids: rows.map((row) => row.rowid),
        vectors: rows.map(
          (row) => new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)),
        ),
      };
    }
    return this.cache;
  }
}

function normalised(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((value) => value / norm);
}
