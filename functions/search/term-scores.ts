/**
 * Each term's BM25 contribution to every row that holds it, as FTS5 scores it, kept between
 * searches until the index changes. FTS5's bm25 is a sum over the query's phrases of terms that
 * depend only on that phrase and the row (its frequency there, the row's length, the phrase's
 * IDF), so the score of `a OR b` is the score of `a` plus the score of `b`. A query then costs a
 * pass over its terms' cached postings instead of FTS5 ranking every matching row again: the
 * common words of a catalogue (the costly ones) are also the ones asked for most. Any write
 * changes every IDF and the average row length, so it empties the cache (`clear`).
 */
export interface TermPostings {
  rowids: Int32Array;
  scores: Float64Array;
}

export interface ScoredRow {
  rowid: number;
  score: number;
}

/**
 * What the cache may hold: 12 bytes a posting (rowid + score) plus about 256 for each term's
 * entry, so that many small terms (a client asking for every word it can think of) are bounded
 * too. A term no row holds is not cached: its look-up costs FTS5 next to nothing.
 */
export const DEFAULT_CACHE_BYTES = 32 * 2 ** 20;
const BYTES_PER_POSTING = 12;
const BYTES_PER_TERM = 256;

export class TermScores {
  private readonly cache = new Map<string, TermPostings>();
  private cachedBytes = 0;
  /** Sums per rowid during one query (reused: zero everywhere between queries). */
  private sums = new Float64Array(0);

  /** `load` reads every (rowid, score) of one term in one table: FTS5 with that term alone. */
  constructor(
    private readonly load: (table: string, term: string) => ScoredRow[],
    private readonly maxBytes = DEFAULT_CACHE_BYTES,
  ) {}

  clear(): void {
    this.cache.clear();
    this.cachedBytes = 0;
  }

  /**
   * The `limit` best rows by the summed scores of `terms` in `table` (score descending, then
   * rowid), among the rows `accept` keeps; the same rows FTS5 ranks first for `"a" OR "b" …`.
   */
  top(table: string, terms: readonly string[], limit: number, accept: (rowid: number) => boolean): ScoredRow[] {
    const touched: number[] = [];
    for (const term of new Set(terms)) {
      const { rowids, scores } = this.postings(table, term);
      this.reserve(rowids.length === 0 ? 0 : rowids[rowids.length - 1]! + 1);
      for (let i = 0; i < rowids.length; i++) {
        const rowid = rowids[i]!;
        if (this.sums[rowid] === 0) touched.push(rowid);
        this.sums[rowid] = this.sums[rowid]! + scores[i]!;
      }
    }
    const best = new TopRows(limit);
    for (const rowid of touched) {
      if (accept(rowid)) best.offer(rowid, this.sums[rowid]!);
      this.sums[rowid] = 0;
    }
    return best.sorted();
  }

  private postings(table: string, term: string): TermPostings {
    const key = `${table}\0${term}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      // Most recently used last, so eviction takes the least recently used first.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const rows = this.load(table, term).sort((a, b) => a.rowid - b.rowid);
    const postings = { rowids: Int32Array.from(rows, (row) => row.rowid), scores: Float64Array.from(rows, (row) => row.score) };
    if (rows.length === 0) return postings;
    this.cache.set(key, postings);
    this.cachedBytes += entryBytes(postings);
    for (const [oldest, cached] of this.cache) {
      if (this.cachedBytes <= this.maxBytes || oldest === key) break;
      this.cache.delete(oldest);
      this.cachedBytes -= entryBytes(cached);
    }
    return postings;
  }

  private reserve(size: number): void {
    if (size <= this.sums.length) return;
    const grown = new Float64Array(Math.max(size, this.sums.length * 2));
    grown.set(this.sums);
    this.sums = grown;
  }
}

/** The `limit` highest-scoring rows seen, in a min-heap on (score, then rowid reversed). */
class TopRows {
  private readonly heap: ScoredRow[] = [];

  constructor(private readonly limit: number) {}

  offer(rowid: number, score: number): void {
    const row = { rowid, score };
    if (this.heap.length < this.limit) {
      this.heap.push(row);
      this.up(this.heap.length - 1);
    } else if (this.limit > 0 && worse(this.heap[0]!, row)) {
      this.heap[0] = row;
      this.down(0);
    }
  }

  sorted(): ScoredRow[] {
    return [...this.heap].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  private up(at: number): void {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!worse(this.heap[at]!, this.heap[parent]!)) return;
      [this.heap[at], this.heap[parent]] = [this.heap[parent]!, this.heap[at]!];
      at = parent;
    }
  }

  private down(at: number): void {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let least = at;
      if (left < this.heap.length && worse(this.heap[left]!, this.heap[least]!)) least = left;
      if (right < this.heap.length && worse(this.heap[right]!, this.heap[least]!)) least = right;
      if (least === at) return;
      [this.heap[at], this.heap[least]] = [this.heap[least]!, this.heap[at]!];
      at = least;
    }
  }
}

function entryBytes(postings: TermPostings): number {
  return BYTES_PER_TERM + BYTES_PER_POSTING * postings.rowids.length;
}

/** Whether `a` ranks below `b`: a lower score, or an equal one with a higher rowid. */
function worse(a: ScoredRow, b: ScoredRow): boolean {
  return a.score < b.score || (a.score === b.score && a.rowid > b.rowid);
}
