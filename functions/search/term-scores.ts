/**
 * Each term's contribution to the score of every row that holds it, kept between searches until
 * the index changes. The ranking (query-likelihood.ts, like FTS5's bm25) is a sum over the query's
 * terms of parts that depend only on that term and the row, so the score of `a OR b` is the score
 * of `a` plus the score of `b` (each times its weight in the query), plus a part per row (`adjust`).
 * A query then costs a pass over its terms' cached postings: the common words of a catalogue (the
 * costly ones) are also the ones asked for most. Any write changes the catalogue's statistics, so
 * it empties the cache (`clear`).
 */
export interface TermPostings {
  rowids: Int32Array;
  scores: Float64Array;
  /** The term's weighted occurrences in each row (what the category model pools). */
  counts: Float32Array;
  /** Occurrences per category, worked out once per term by the category model (category-model.ts). */
  categoryCounts?: Map<number, number>;
}

export interface ScoredRow {
  rowid: number;
  score: number;
  /** Weighted occurrences of the term in the row (default 1). */
  count?: number;
}

/** A query term and its weight. */
export type WeightedTerm = readonly [term: string, weight: number];

/**
 * What the cache may hold: 16 bytes a posting (rowid, score, count) plus about 256 for each term's
 * entry, so that many small terms (a client asking for every word it can think of) are bounded
 * too. A term no row holds is not cached: its look-up costs FTS5 next to nothing.
 */
export const DEFAULT_CACHE_BYTES = 32 * 2 ** 20;
const BYTES_PER_POSTING = 16;
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
   * The `limit` best rows by the weighted sums of the scores of `terms` in `table`, each passed
   * through `adjust` (score descending, then rowid), among the rows `accept` keeps; with weights of
   * 1 and no adjustment, the same rows FTS5 ranks first for `"a" OR "b" …` when it is the loader.
   * Scores must be positive.
   */
  top(
    table: string,
    terms: readonly (string | WeightedTerm)[],
    limit: number,
    accept: (rowid: number) => boolean,
    adjust: (rowid: number, sum: number) => number = (_rowid, sum) => sum,
  ): ScoredRow[] {
    const weights = new Map<string, number>();
    for (const entry of terms) {
      const [term, weight] = typeof entry === "string" ? [entry, 1] : entry;
      weights.set(term, Math.max(weights.get(term) ?? 0, weight));
    }
    const touched: number[] = [];
    for (const [term, weight] of weights) {
      const { rowids, scores } = this.postings(table, term);
      this.reserve(rowids.length === 0 ? 0 : rowids[rowids.length - 1]! + 1);
      for (let i = 0; i < rowids.length; i++) {
        const rowid = rowids[i]!;
        if (this.sums[rowid] === 0) touched.push(rowid);
        this.sums[rowid] = this.sums[rowid]! + weight * scores[i]!;
      }
    }
    const best = new TopRows(limit);
    for (const rowid of touched) {
      if (accept(rowid)) best.offer(rowid, adjust(rowid, this.sums[rowid]!));
      this.sums[rowid] = 0;
    }
    return best.sorted();
  }

  /** A term's postings in `table` (read once, then kept until `clear`). */
  postings(table: string, term: string): TermPostings {
    const key = `${table}\0${term}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      // Most recently used last, so eviction takes the least recently used first.
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    const rows = this.load(table, term).sort((a, b) => a.rowid - b.rowid);
    const postings: TermPostings = {
      rowids: Int32Array.from(rows, (row) => row.rowid),
      scores: Float64Array.from(rows, (row) => row.score),
      counts: Float32Array.from(rows, (row) => row.count ?? 1),
    };
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
