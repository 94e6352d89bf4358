import type { CatalogueStatistics } from "./catalogue-statistics.js";
import type { Postings } from "./inverted-index.js";
import { termEvidence } from "./query-likelihood.js";
import { indexKey } from "./search-document.js";

/**
 * Each query term's contribution to the score of every row that holds it, kept between searches
 * and between writes. The ranking (query-likelihood.ts) is a sum over the query's terms of parts
 * that depend only on that term and the row, so a query costs a pass over its terms' cached
 * postings plus a part per row (`adjust`). A term's postings merge its index keys (the light form
 * in names, the stemmed form in short fields and, for a fairly specific term, in man pages:
 * search-document.ts) into one weighted count per row.
 *
 * A write patches the entries of the terms that the written tool holds or held (`rowChanged`):
 * its row's count, the term's total, its score and its per-category counts, in place. The other
 * entries depend on the write only through the catalogue's total length, and are scored again
 * (from their counts, with no read of the index) once that has moved by more than
 * `SCORE_DRIFT`; likewise a patched term's own catalogue share. So a search right after a write
 * costs what it did before it (docs/search.md, "Writes").
 */

/** A query term: its stemmed form, and its light form (absent for typo variants, which stem only). */
export interface QueryTerm {
  stemmed: string;
  light?: string;
}

/** A query term and its weight. */
export type WeightedTerm = readonly [term: QueryTerm, weight: number];

export interface ScoredRow {
  rowid: number;
  score: number;
}

/** A row's index keys (half-units each), short fields and man page apart, as search-document.ts makes them. */
export interface RowKeys {
  short: ReadonlyMap<string, number>;
  man: ReadonlyMap<string, number>;
}

/** Where terms' postings come from, and the catalogue they are scored against. */
export interface TermSource {
  postings(key: string): Postings;
  /** How many rows hold the key. */
  documents(key: string): number;
  /** Whether man pages count for a term that this many man pages use (common ones do not: tool-search-index.ts). */
  manPagesCount(manDocuments: number): boolean;
  statistics(): Pick<CatalogueStatistics, "totalLength">;
}

/** One query term's postings over the whole catalogue, scored. */
export interface TermEntry {
  readonly id: string;
  /** Its index keys in short fields (the stemmed form, and the light form in names), and in man pages. */
  readonly shortKeys: readonly string[];
  readonly manKey: string;
  /** Whether man pages count for it (they do not for common terms). */
  withManPage: boolean;
  /** Ascending; the first `size` are in use. */
  rowids: Int32Array;
  /** Weighted occurrences of the term in each row (what the category model pools). */
  counts: Float32Array;
  scores: Float64Array;
  size: number;
  /** Rows whose short fields hold the term, and rows whose man page does. */
  shortDocuments: number;
  manDocuments: number;
  /** Sum of `counts`. */
  total: number;
  /** The catalogue share the scores were computed with. */
  scoredShare: number;
  /** Occurrences per category, worked out once per term by the category model and patched on writes (category-model.ts). */
  categoryCounts?: Map<number, number>;
}

/**
 * Scores are recomputed once the share they used is off by this much (relative): a row's score
 * then moves by less than a thousandth of a unit, well below the gaps between tools that rank.
 */
export const SCORE_DRIFT = 1e-3;

/**
 * What the cache may hold: 16 bytes a posting (rowid, score, count) plus about 256 for each term's
 * entry, so that many small terms (a client asking for every word it can think of) are bounded
 * too. A term no row holds is not cached: looking it up costs next to nothing.
 */
export const DEFAULT_CACHE_BYTES = 32 * 2 ** 20;
const BYTES_PER_POSTING = 16;
const BYTES_PER_TERM = 256;

export class TermScores {
  private readonly cache = new Map<string, TermEntry>();
  /** Entries by each index key they hold, to find the ones a write touches. */
  private readonly byKey = new Map<string, Set<TermEntry>>();
  private cachedBytes = 0;
  /** Sums per rowid during one query (reused: zero everywhere between queries). */
  private sums = new Float64Array(0);

  constructor(
    private readonly source: TermSource,
    private readonly maxBytes = DEFAULT_CACHE_BYTES,
  ) {}

  clear(): void {
    this.cache.clear();
    this.byKey.clear();
    this.cachedBytes = 0;
  }

  /** A term's entry, read once from the index and kept (most recently used last), scored for the catalogue as it is. */
  entry(term: QueryTerm): TermEntry {
    const id = `${term.stemmed}\0${term.light ?? ""}`;
    let entry = this.cache.get(id);
    if (entry !== undefined && entry.withManPage !== this.withManPage(entry.manDocuments)) {
      this.forget(entry);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = this.load(id, term);
      if (entry.size > 0) this.remember(entry);
    } else {
      this.cache.delete(id);
      this.cache.set(id, entry);
    }
    this.rescoreIfDrifted(entry);
    return entry;
  }

  /** The catalogue share of a term (its weighted count over the catalogue's total length). */
  share(entry: Pick<TermEntry, "total">): number {
    return entry.total / Math.max(this.source.statistics().totalLength, entry.total);
  }

  /**
   * The `limit` best rows by the weighted sums of the terms' scores, each passed through `adjust`
   * (score descending, then rowid), among the rows `accept` keeps. Scores must be positive.
   */
  top(
    terms: readonly WeightedTerm[],
    limit: number,
    accept: (rowid: number) => boolean,
    adjust: (rowid: number, sum: number) => number = (_rowid, sum) => sum,
  ): ScoredRow[] {
    const weights = new Map<TermEntry, number>();
    for (const [term, weight] of terms) {
      const entry = this.entry(term);
      weights.set(entry, Math.max(weights.get(entry) ?? 0, weight));
    }
    const touched: number[] = [];
    for (const [{ rowids, scores, size }, weight] of weights) {
      this.reserve(size === 0 ? 0 : rowids[size - 1]! + 1);
      for (let i = 0; i < size; i++) {
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

  /**
   * Row `rowid` changed from `before` to `after` (either absent: added or removed), its category
   * from `categoryBefore` to `categoryAfter` (-1 for none): patches the entries of the terms it
   * holds or held.
   */
  rowChanged(rowid: number, before: RowKeys | undefined, after: RowKeys | undefined, categoryBefore: number, categoryAfter: number): void {
    const touched = new Set<TermEntry>();
    for (const keys of [before?.short, before?.man, after?.short, after?.man]) {
      for (const key of keys?.keys() ?? []) for (const entry of this.byKey.get(key) ?? []) touched.add(entry);
    }
    for (const entry of touched) {
      const old = countIn(entry, before, entry.withManPage);
      const manDocuments = entry.manDocuments + Number((after?.man.get(entry.manKey) ?? 0) > 0) - Number(old.man > 0);
      const withManPage = this.withManPage(manDocuments);
      // Man pages start or stop counting for the term: patchable only when this row's is the sole one.
      if (withManPage !== entry.withManPage && entry.manDocuments > 0 && manDocuments > 0) {
        this.forget(entry);
        continue;
      }
      entry.withManPage = withManPage;
      const now = countIn(entry, after, withManPage);
      entry.shortDocuments += Number(now.short > 0) - Number(old.short > 0);
      entry.manDocuments = manDocuments;
      entry.total += now.count - old.count;
      if (entry.categoryCounts !== undefined) {
        addTo(entry.categoryCounts, categoryBefore, -old.count);
        addTo(entry.categoryCounts, categoryAfter, now.count);
      }
      if (!this.setCount(entry, rowid, now.count) || entry.size === 0) this.forget(entry);
    }
  }

  private load(id: string, term: QueryTerm): TermEntry {
    const manKey = indexKey("m", term.stemmed);
    const shortKeys = [indexKey("s", term.stemmed), ...(term.light === undefined ? [] : [indexKey("n", term.light)])];
    const short = merged(shortKeys.map((key) => this.source.postings(key)));
    const manDocuments = this.source.documents(manKey);
    const withManPage = this.withManPage(manDocuments);
    const all = withManPage ? merged([short, this.source.postings(manKey)]) : short;
    let total = 0;
    const counts = new Float32Array(all.units.length);
    for (let i = 0; i < counts.length; i++) total += counts[i] = all.units[i]! / 2;
    const entry: TermEntry = {
      id,
      shortKeys,
      manKey,
      withManPage,
      rowids: all.rowids,
      counts,
      scores: new Float64Array(counts.length),
      size: counts.length,
      shortDocuments: short.rowids.length,
      manDocuments,
      total,
      scoredShare: 0,
    };
    this.rescore(entry);
    return entry;
  }

  /** Whether an entry of a term that this many man pages use merges their postings. */
  private withManPage(manDocuments: number): boolean {
    return manDocuments > 0 && this.source.manPagesCount(manDocuments);
  }

  private rescoreIfDrifted(entry: TermEntry): void {
    if (Math.abs(this.share(entry) - entry.scoredShare) > SCORE_DRIFT * entry.scoredShare) this.rescore(entry);
  }

  private rescore(entry: TermEntry): void {
    const share = this.share(entry);
    for (let i = 0; i < entry.size; i++) entry.scores[i] = termEvidence(entry.counts[i]!, share);
    entry.scoredShare = share;
  }

  /** Sets one row's count (0 takes the row out); false when the entry should rather be read again. */
  private setCount(entry: TermEntry, rowid: number, count: number): boolean {
    let low = 0;
    let high = entry.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (entry.rowids[middle]! < rowid) low = middle + 1;
      else high = middle;
    }
    const present = low < entry.size && entry.rowids[low] === rowid;
    if (count === 0) {
      if (!present) return true;
      entry.rowids.copyWithin(low, low + 1, entry.size);
      entry.counts.copyWithin(low, low + 1, entry.size);
      entry.scores.copyWithin(low, low + 1, entry.size);
      entry.size--;
      return true;
    }
    if (!present) {
      if (entry.size === entry.rowids.length && !this.grow(entry)) return false;
      entry.rowids.copyWithin(low + 1, low, entry.size);
      entry.counts.copyWithin(low + 1, low, entry.size);
      entry.scores.copyWithin(low + 1, low, entry.size);
      entry.rowids[low] = rowid;
      entry.size++;
    }
    entry.counts[low] = count;
    entry.scores[low] = termEvidence(count, entry.scoredShare);
    return true;
  }

  /** Room for more postings (half as many again); false when the cache cannot hold it. */
  private grow(entry: TermEntry): boolean {
    const capacity = Math.max(8, Math.ceil(entry.rowids.length * 1.5));
    const added = BYTES_PER_POSTING * (capacity - entry.rowids.length);
    if (this.cachedBytes + added > this.maxBytes) return false;
    const resized = <T extends Int32Array | Float32Array | Float64Array>(array: T, make: (size: number) => T): T => {
      const bigger = make(capacity);
      bigger.set(array);
      return bigger;
    };
    entry.rowids = resized(entry.rowids, (size) => new Int32Array(size));
    entry.counts = resized(entry.counts, (size) => new Float32Array(size));
    entry.scores = resized(entry.scores, (size) => new Float64Array(size));
    this.cachedBytes += added;
    return true;
  }

  private remember(entry: TermEntry): void {
    this.cache.set(entry.id, entry);
    for (const key of [...entry.shortKeys, entry.manKey]) {
      let entries = this.byKey.get(key);
      if (entries === undefined) this.byKey.set(key, (entries = new Set()));
      entries.add(entry);
    }
    this.cachedBytes += entryBytes(entry);
    for (const oldest of this.cache.values()) {
      if (this.cachedBytes <= this.maxBytes || oldest === entry) break;
      this.forget(oldest);
    }
  }

  private forget(entry: TermEntry): void {
    if (this.cache.get(entry.id) !== entry) return;
    this.cache.delete(entry.id);
    for (const key of [...entry.shortKeys, entry.manKey]) {
      const entries = this.byKey.get(key);
      entries?.delete(entry);
      if (entries?.size === 0) this.byKey.delete(key);
    }
    this.cachedBytes -= entryBytes(entry);
  }

  private reserve(size: number): void {
    if (size <= this.sums.length) return;
    const grown = new Float64Array(Math.max(size, this.sums.length * 2));
    grown.set(this.sums);
    this.sums = grown;
  }
}

/** An entry's weighted count in a row with these keys, and the half-units of its short fields and man page there. */
function countIn(entry: TermEntry, row: RowKeys | undefined, withManPage: boolean): { count: number; short: number; man: number } {
  if (row === undefined) return { count: 0, short: 0, man: 0 };
  let short = 0;
  for (const key of entry.shortKeys) short += row.short.get(key) ?? 0;
  const man = row.man.get(entry.manKey) ?? 0;
  return { count: (short + (withManPage ? man : 0)) / 2, short, man };
}

function addTo(counts: Map<number, number>, category: number, count: number): void {
  if (category < 0 || count === 0) return;
  const sum = (counts.get(category) ?? 0) + count;
  if (Math.abs(sum) < 1e-9) counts.delete(category);
  else counts.set(category, sum);
}

/** Postings of several keys as one list: each row's half-units summed. */
function merged(lists: Postings[]): Postings {
  return lists.reduce((sum, list) => (sum.rowids.length === 0 ? list : list.rowids.length === 0 ? sum : mergedPair(sum, list)));
}

function mergedPair(a: Postings, b: Postings): Postings {
  const rowids = new Int32Array(a.rowids.length + b.rowids.length);
  const units = new Uint32Array(rowids.length);
  let i = 0;
  let j = 0;
  let size = 0;
  while (i < a.rowids.length || j < b.rowids.length) {
    const left = i < a.rowids.length ? a.rowids[i]! : Number.POSITIVE_INFINITY;
    const right = j < b.rowids.length ? b.rowids[j]! : Number.POSITIVE_INFINITY;
    rowids[size] = Math.min(left, right);
    units[size++] = (left <= right ? a.units[i++]! : 0) + (right <= left ? b.units[j++]! : 0);
  }
  return { rowids: rowids.subarray(0, size), units: units.subarray(0, size) };
}

function entryBytes(entry: TermEntry): number {
  return BYTES_PER_TERM + BYTES_PER_POSTING * entry.rowids.length;
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

/** Whether `a` ranks below `b`: a lower score, or an equal one with a higher rowid. */
function worse(a: ScoredRow, b: ScoredRow): boolean {
  return a.score < b.score || (a.score === b.score && a.rowid > b.rowid);
}
