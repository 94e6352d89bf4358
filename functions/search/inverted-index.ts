import type { SqliteDatabase } from "./sqlite-driver.js";
import { VarintReader, VarintWriter } from "./varint.js";

/**
 * The search index's postings, in its SQLite database (so a snapshot carries them, and a cold
 * instance reads only the terms its queries use): for each term (an index key: a field class and
 * a word, search-document.ts), the rows that hold it with its weighted occurrences there, in
 * half-units (a name word counts 3, so 6 half-units). Stored in blocks of `BLOCK_ROWS` row ids
 * (varint gaps and counts), so a write rewrites one small block per term it touches, and a term's
 * postings are one range read. Each tool's own term list (its "forward" list, kept with the tool)
 * says which postings to take out when it changes or goes.
 *
 * Why not FTS5 (docs/search.md#the-index-as-an-artifact): ranking reads a term's whole postings,
 * which FTS5 gives only by walking its instance table (most of a search's time after a write),
 * and FTS5 builds about five times slower than collecting postings here.
 */
export interface Postings {
  /** Ascending. */
  rowids: Int32Array;
  /** Half-units of the term in each row. */
  units: Uint32Array;
}

/** A term's statistics: how many rows hold it, and its half-units over all of them. */
export interface TermStatistics {
  documents: number;
  units: number;
}

/** Row ids per block: a block is a few kilobytes, and a term of 100,000 rows is 25 blocks. */
const BLOCK_BITS = 12;
const EMPTY: Postings = { rowids: new Int32Array(0), units: new Uint32Array(0) };

export const INVERTED_INDEX_SCHEMA = `
  CREATE TABLE terms (id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, documents INTEGER NOT NULL, units INTEGER NOT NULL);
  CREATE TABLE postings (term INTEGER NOT NULL, block INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (term, block)) WITHOUT ROWID;
`;

interface Term extends TermStatistics {
  id: number;
}

export class InvertedIndex {
  private readonly statements;
  private readonly writer = new VarintWriter();
  private readonly termList = new TermListWriter();

  constructor(db: SqliteDatabase) {
    this.statements = {
      term: db.prepare<Term>("SELECT id, documents, units FROM terms WHERE key = ?"),
      keyOf: db.prepare<{ key: string }>("SELECT key FROM terms WHERE id = ?"),
      insertTerm: db.prepare<{ id: number }>("INSERT INTO terms (key, documents, units) VALUES (?, 0, 0) RETURNING id"),
      insertTermWithId: db.prepare("INSERT INTO terms (id, key, documents, units) VALUES (?, ?, ?, ?)"),
      updateTerm: db.prepare("UPDATE terms SET documents = ?, units = ? WHERE id = ?"),
      deleteTerm: db.prepare("DELETE FROM terms WHERE id = ?"),
      nextTermId: db.prepare<{ next: number }>("SELECT coalesce(max(id), 0) + 1 AS next FROM terms"),
      known: db.prepare<{ key: string }>("SELECT key FROM terms WHERE key IN (SELECT value FROM json_each(?))"),
      blocks: db.prepare<{ block: number; data: Uint8Array }>("SELECT block, data FROM postings WHERE term = ? ORDER BY block"),
      block: db.prepare<{ data: Uint8Array }>("SELECT data FROM postings WHERE term = ? AND block = ?"),
      putBlock: db.prepare(
        "INSERT INTO postings (term, block, data) VALUES (?, ?, ?) ON CONFLICT (term, block) DO UPDATE SET data = excluded.data",
      ),
      deleteBlock: db.prepare("DELETE FROM postings WHERE term = ? AND block = ?"),
    };
  }

  /** A term's statistics (zero when no row holds it). */
  statistics(key: string): TermStatistics {
    const term = this.statements.term.get(key);
    return term === undefined ? { documents: 0, units: 0 } : { documents: term.documents, units: term.units };
  }

  /** Every row that holds the term, with its half-units there. */
  postings(key: string): Postings {
    const term = this.statements.term.get(key);
    if (term === undefined) return EMPTY;
    const rowids = new Int32Array(term.documents);
    const units = new Uint32Array(term.documents);
    let at = 0;
    for (const { block, data } of this.statements.blocks.all(term.id)) {
      const reader = new VarintReader(data);
      let rowid = block << BLOCK_BITS;
      while (!reader.done) {
        rowid += reader.read();
        rowids[at] = rowid;
        units[at++] = reader.read();
      }
    }
    return { rowids, units };
  }

  /** Those of `keys` that some row holds. */
  known(keys: readonly string[]): Set<string> {
    if (keys.length === 0) return new Set();
    return new Set(this.statements.known.all(JSON.stringify(keys)).map((row) => row.key));
  }

  /** Adds row `rowid` holding `keys` (half-units each); returns its term list, for `remove`. */
  add(rowid: number, keys: ReadonlyMap<string, number>): Uint8Array {
    for (const [key, units] of keys) {
      const term = this.statements.term.get(key) ?? { id: this.statements.insertTerm.get(key)!.id, documents: 0, units: 0 };
      this.setInBlock(term.id, rowid, units);
      this.statements.updateTerm.run(term.documents + 1, term.units + units, term.id);
      this.termList.add(term.id, units);
    }
    return this.termList.finish();
  }

  /** Takes row `rowid` (whose term list `add` returned) out of every term's postings; returns the keys it held, with their half-units. */
  remove(rowid: number, termList: Uint8Array): Map<string, number> {
    const keys = new Map<string, number>();
    for (const [id, units] of decodeTermList(termList)) {
      const key = this.statements.keyOf.get(id)?.key;
      if (key === undefined) continue;
      const term = this.statements.term.get(key)!;
      keys.set(key, units);
      this.setInBlock(id, rowid, undefined);
      if (term.documents <= 1) this.statements.deleteTerm.run(id);
      else this.statements.updateTerm.run(term.documents - 1, term.units - units, id);
    }
    return keys;
  }

  /** Rewrites the block of `rowid` in term `id`'s postings with that row's half-units (undefined: without the row). */
  private setInBlock(id: number, rowid: number, units: number | undefined): void {
    const block = rowid >>> BLOCK_BITS;
    const base = block << BLOCK_BITS;
    const data = this.statements.block.get(id, block)?.data;
    // Each row takes two bytes or more: room for all of them and one more.
    const rows = new Int32Array(data === undefined ? 1 : data.length + 1);
    const values = new Uint32Array(rows.length);
    let size = 0;
    if (data !== undefined) {
      const reader = new VarintReader(data);
      let at = base;
      while (!reader.done) {
        at += reader.read();
        rows[size] = at;
        values[size++] = reader.read();
      }
    }
    let position = 0;
    while (position < size && rows[position]! < rowid) position++;
    const present = position < size && rows[position] === rowid;
    if (units === undefined && present) {
      rows.copyWithin(position, position + 1, size);
      values.copyWithin(position, position + 1, size);
      size--;
    } else if (units !== undefined) {
      if (!present) {
        rows.copyWithin(position + 1, position, size);
        values.copyWithin(position + 1, position, size);
        size++;
      }
      rows[position] = rowid;
      values[position] = units;
    }
    if (size === 0) {
      this.statements.deleteBlock.run(id, block);
      return;
    }
    let previous = base;
    for (let i = 0; i < size; i++) {
      this.writer.write(rows[i]! - previous);
      this.writer.write(values[i]!);
      previous = rows[i]!;
    }
    this.statements.putBlock.run(id, block, this.writer.finish());
  }

  /**
   * Collects the postings of many new rows in memory and writes them in one pass (`finish`): how a
   * whole index is built (docs/search.md, "Cold start"). For an index with no terms yet.
   */
  builder(): InvertedIndexBuilder {
    return new InvertedIndexBuilder(this.statements.nextTermId.get()!.next, (id, key, rowids, units) => {
      let total = 0;
      for (let i = 0; i < units.length; i++) total += units[i]!;
      this.statements.insertTermWithId.run(id, key, rowids.length, total);
      let i = 0;
      while (i < rowids.length) {
        const block = rowids[i]! >>> BLOCK_BITS;
        let previous = block << BLOCK_BITS;
        for (; i < rowids.length && rowids[i]! >>> BLOCK_BITS === block; i++) {
          this.writer.write(rowids[i]! - previous);
          this.writer.write(units[i]!);
          previous = rowids[i]!;
        }
        this.statements.putBlock.run(id, block, this.writer.finish());
      }
    });
  }
}

/** Postings of new rows (ascending row ids) gathered in growable typed arrays, written once. */
export class InvertedIndexBuilder {
  private readonly lists = new Map<string, GrowingPostings>();
  private readonly termList = new TermListWriter();

  constructor(
    private readonly firstId: number,
    private readonly write: (id: number, key: string, rowids: Int32Array, units: Uint32Array) => void,
  ) {}

  /** Adds a row (above every row added before); returns its term list. */
  add(rowid: number, keys: ReadonlyMap<string, number>): Uint8Array {
    keys.forEach((units, key) => {
      let list = this.lists.get(key);
      if (list === undefined) {
        list = new GrowingPostings(this.firstId + this.lists.size);
        this.lists.set(key, list);
      }
      list.push(rowid, units);
      this.termList.add(list.id, units);
    });
    return this.termList.finish();
  }

  finish(): void {
    for (const [key, list] of this.lists) this.write(list.id, key, list.rowids.subarray(0, list.size), list.units.subarray(0, list.size));
    this.lists.clear();
  }
}

class GrowingPostings {
  rowids = new Int32Array(4);
  units = new Uint32Array(4);
  size = 0;

  constructor(readonly id: number) {}

  push(rowid: number, units: number): void {
    if (this.size === this.rowids.length) {
      this.rowids = grown(this.rowids, this.size + 1);
      this.units = grown(this.units, this.size + 1);
    }
    this.rowids[this.size] = rowid;
    this.units[this.size++] = units;
  }
}

/**
 * A row's terms as (id gap, half-units) varints, ids ascending. A row's term ids are distinct, so
 * they sort as plain numbers (no comparator, no pair per term) and each one's half-units wait in
 * an array indexed by id: building an index writes a term list per row and field.
 */
class TermListWriter {
  private ids = new Int32Array(64);
  private unitsById = new Uint32Array(64);
  private size = 0;
  private readonly writer = new VarintWriter();

  add(id: number, units: number): void {
    if (this.size === this.ids.length) this.ids = grown(this.ids, this.size + 1);
    if (id >= this.unitsById.length) this.unitsById = grown(this.unitsById, id + 1);
    this.ids[this.size++] = id;
    this.unitsById[id] = units;
  }

  /** The term list of the terms added since the last one. */
  finish(): Uint8Array {
    const ids = this.ids.subarray(0, this.size).sort();
    let previous = 0;
    for (const id of ids) {
      this.writer.write(id - previous);
      this.writer.write(this.unitsById[id]!);
      previous = id;
    }
    this.size = 0;
    return this.writer.finish();
  }
}

/** A copy of `array` with room for at least `length` elements. */
function grown<T extends Int32Array | Uint32Array>(array: T, length: number): T {
  const copy = new (array.constructor as new (length: number) => T)(Math.max(length, 2 * array.length));
  copy.set(array);
  return copy;
}

function decodeTermList(termList: Uint8Array): [id: number, units: number][] {
  const entries: [number, number][] = [];
  const reader = new VarintReader(termList);
  let id = 0;
  while (!reader.done) {
    id += reader.read();
    entries.push([id, reader.read()]);
  }
  return entries;
}
