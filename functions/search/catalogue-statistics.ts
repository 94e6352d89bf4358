/**
 * What ranking needs of every row, kept in step with each write rather than recomputed: each
 * row's weighted length, category (its `tool_type`), quality and duplicate group
 * (search-document.ts), and per category its tools' total length and count. A write changes one row's entries
 * and its categories' totals (docs/search.md,
 * "Writes"). Saved with a snapshot (`save`), so that a cold instance reads three values instead
 * of a row per tool (`load`).
 */
import { lengthPrior } from "./query-likelihood.js";
import type { SqliteDatabase } from "./sqlite-driver.js";

export const CATALOGUE_STATISTICS_SCHEMA = "CREATE TABLE statistics (name TEXT PRIMARY KEY, data BLOB NOT NULL);";

const NO_CATEGORY = -1;

/** What the statistics keep of one row. */
export interface RowStatistics {
  type: string;
  length: number;
  quality: number;
  duplicateGroup: number;
}

export class CatalogueStatistics {
  /** Weighted length by rowid (0 for no row). */
  private lengths: Float64Array;
  /** `lengthPrior` of each row's length (query-likelihood.ts). */
  private priors: Float64Array;
  /** Category index by rowid, `NO_CATEGORY` for no row. */
  private categories: Int32Array;
  private qualities: Float64Array;
  private groups: Uint32Array;
  private readonly categoryIndex = new Map<string, number>();
  /** By category index: its type, its tools' total length, and how many tools it has. */
  readonly types: string[] = [];
  readonly categoryLengths: number[] = [];
  readonly categoryTools: number[] = [];
  private total = 0;

  private constructor(
    lengths: Float64Array,
    categories: Int32Array,
    qualities: Float64Array,
    groups: Uint32Array,
    types: readonly string[],
  ) {
    this.lengths = lengths;
    this.priors = lengths.map(lengthPrior);
    this.categories = categories;
    this.qualities = qualities;
    this.groups = groups;
    for (const type of types) this.categoryFor(type);
    for (let rowid = 0; rowid < categories.length; rowid++) {
      const category = categories[rowid]!;
      if (category === NO_CATEGORY) continue;
      this.categoryLengths[category]! += lengths[rowid]!;
      this.categoryTools[category]!++;
      this.total += lengths[rowid]!;
    }
  }

  static empty(): CatalogueStatistics {
    return new CatalogueStatistics(new Float64Array(0), new Int32Array(0), new Float64Array(0), new Uint32Array(0), []);
  }

  /** From the tools table: one row per tool. */
  static ofRows(rows: Iterable<RowStatistics & { rowid: number }>): CatalogueStatistics {
    const statistics = CatalogueStatistics.empty();
    for (const row of rows) statistics.set(row.rowid, row);
    return statistics;
  }

  /** As `save` left them in `db`, or undefined when it holds none. */
  static load(db: SqliteDatabase): CatalogueStatistics | undefined {
    const parts = new Map(
      db
        .prepare<{ name: string; data: Uint8Array }>("SELECT name, data FROM statistics")
        .all()
        .map((row) => [row.name, row.data]),
    );
    const [lengths, categories, qualities, groups, types] = ["lengths", "categories", "qualities", "groups", "types"].map((name) =>
      parts.get(name),
    );
    if (lengths === undefined || categories === undefined || qualities === undefined || groups === undefined || types === undefined) {
      return undefined;
    }
    return new CatalogueStatistics(
      new Float64Array(copied(lengths).buffer),
      new Int32Array(copied(categories).buffer),
      new Float64Array(copied(qualities).buffer),
      new Uint32Array(copied(groups).buffer),
      JSON.parse(Buffer.from(types).toString("utf8")) as string[],
    );
  }

  save(db: SqliteDatabase): void {
    const put = db.prepare("INSERT OR REPLACE INTO statistics (name, data) VALUES (?, ?)");
    for (const [name, array] of [
      ["lengths", this.lengths],
      ["categories", this.categories],
      ["qualities", this.qualities],
      ["groups", this.groups],
    ] as const) {
      put.run(name, new Uint8Array(array.buffer, 0, array.byteLength));
    }
    put.run("types", Buffer.from(JSON.stringify(this.types)));
  }

  /** Sum of every row's weighted length. */
  get totalLength(): number {
    return this.total;
  }

  length(rowid: number): number {
    return this.lengths[rowid] ?? 0;
  }

  /** `lengthPrior` of the row's length. */
  prior(rowid: number): number {
    return this.priors[rowid] ?? 0;
  }

  /** The row's category index, or -1 when there is no such row. */
  categoryOf(rowid: number): number {
    return this.categories[rowid] ?? NO_CATEGORY;
  }

  quality(rowid: number): number {
    return this.qualities[rowid] ?? 0;
  }

  duplicateGroup(rowid: number): number {
    return this.groups[rowid] ?? 0;
  }

  set(rowid: number, { type, length, quality, duplicateGroup }: RowStatistics): void {
    this.delete(rowid);
    this.reserve(rowid + 1);
    const category = this.categoryFor(type);
    this.lengths[rowid] = length;
    this.priors[rowid] = lengthPrior(length);
    this.categories[rowid] = category;
    this.qualities[rowid] = quality;
    this.groups[rowid] = duplicateGroup;
    this.categoryLengths[category]! += length;
    this.categoryTools[category]!++;
    this.total += length;
  }

  delete(rowid: number): void {
    const category = this.categoryOf(rowid);
    if (category === NO_CATEGORY) return;
    const length = this.lengths[rowid]!;
    this.categoryLengths[category]! -= length;
    this.categoryTools[category]!--;
    this.total -= length;
    this.lengths[rowid] = 0;
    this.categories[rowid] = NO_CATEGORY;
    this.qualities[rowid] = 0;
    this.groups[rowid] = 0;
  }

  private categoryFor(type: string): number {
    let category = this.categoryIndex.get(type);
    if (category === undefined) {
      category = this.types.push(type) - 1;
      this.categoryIndex.set(type, category);
      this.categoryLengths.push(0);
      this.categoryTools.push(0);
    }
    return category;
  }

  private reserve(size: number): void {
    if (size <= this.lengths.length) return;
    const capacity = Math.max(size, 2 * this.lengths.length, 1024);
    const lengths = new Float64Array(capacity);
    lengths.set(this.lengths);
    const priors = new Float64Array(capacity);
    priors.set(this.priors);
    this.priors = priors;
    const categories = new Int32Array(capacity).fill(NO_CATEGORY);
    categories.set(this.categories);
    const qualities = new Float64Array(capacity);
    qualities.set(this.qualities);
    const groups = new Uint32Array(capacity);
    groups.set(this.groups);
    this.lengths = lengths;
    this.categories = categories;
    this.qualities = qualities;
    this.groups = groups;
  }
}

/** A copy in a buffer of its own (a typed array over it then starts at offset 0, aligned). */
function copied(bytes: Uint8Array): Uint8Array {
  return bytes.slice();
}
