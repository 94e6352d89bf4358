import { CategoryModel, type CategoryEvidence } from "./category-model.js";
import { fuzzyVariants } from "./fuzzy-terms.js";
import { FIELD_WEIGHTS, MAN_PAGE_WEIGHT, lengthPrior, queryTermWeight, termEvidence } from "./query-likelihood.js";
import {
  SHORT_FIELDS,
  toSearchDocument,
  type SearchableEntry,
  type SearchDocument,
  type ShortField,
  type ToolSummary,
} from "./search-document.js";
import { MAX_SEARCH_DEPTH } from "./search-query.js";
import { queryTermCounts } from "./search-terms.js";
import { SqliteDatabase } from "./sqlite-driver.js";
import { SynonymTable } from "./synonyms.js";
import { TermScores, type ScoredRow, type WeightedTerm } from "./term-scores.js";
import { decodeEmbedding } from "./tool-embedding.js";
import { VectorTable } from "./vector-table.js";

export interface SearchQuery {
  q: string;
  limit: number;
  /** Exact `tool_type`. */
  type?: string;
  /** Exact member of `tool_tags`. */
  tag?: string;
}

export type SearchHit = ToolSummary & { score: number };

/** Synonyms and typo corrections of a query term count this much of the term itself. */
const EXPANSION_WEIGHT = 0.5;
/**
 * Synonyms are looked for only in queries of at most this many terms: they find the tool for a
 * short query in other words, but a long request already says what it needs in many words, and
 * its expansions ("create" → generate, "find" → search) mostly add noise.
 */
const MAX_TERMS_FOR_SYNONYMS = 4;
/** The best this many matches are ranked: a fixed pool, so every page of one query ranks alike. */
const CANDIDATES = 2 * MAX_SEARCH_DEPTH;
/**
 * Scores this close (relatively) are ties, broken by quality, then tool id. FTS5 floors the IDF of
 * a term found in most tools at 1e-6, so in a small catalogue scores can be tiny yet meaningful:
 * ties are relative, and scores are reported to significant digits, not decimals.
 */
const TIE_TOLERANCE = 1e-9;
const SCORE_DIGITS = 6;

/** Document frequencies kept between writes (about 100 bytes each). */
const MAX_CACHED_FREQUENCIES = 100_000;
/**
 * Pruning of common terms (see `informative`) starts at this catalogue size: below it, a term's
 * rows cost next to nothing to score, and a common word still tells tools apart a little.
 */
const MIN_TOOLS_FOR_PRUNING = 1000;
const MAX_SHORT_TERM_SHARE = 0.5;
const MAX_MAN_PAGE_TERM_SHARE = 0.1;
/** The term scores' cache holds one table: each term's rows over short fields and man pages. */
const TERMS = "terms";

type Table = "short_text" | "man_text";

/** Per row: its weighted length and category (`tool_type`), and the catalogue's totals; until the next write. */
interface CatalogueStatistics {
  lengths: Float64Array;
  totalLength: number;
  categories: CategoryModel;
}

export const INDEX_FORMAT = "agent-tools-search/2";

/**
 * The search index of the latest entry of every tool: SQLite FTS5 (through better-sqlite3), in
 * memory. The whole index serialises to one file (`serialize`), which is the snapshot that a cold
 * search instance loads (`open`) instead of reading every entry; see docs/search.md for why FTS5.
 * It also records the catalog revision it reflects, so a loaded snapshot knows which changes to
 * apply.
 */
export class ToolSearchIndex {
  private readonly synonyms = new SynonymTable();
  private readonly statements;
  private tools: number;
  /** Each term's scores per row, until the next write (see term-scores.ts). */
  private readonly termScores: TermScores;
  /** How many rows of a table hold a term (`table\0term`), until the next write; at most MAX_CACHED_FREQUENCIES. */
  private readonly frequencies = new Map<string, number>();
  /** Tools' vectors for hybrid search (absent unless the registry embeds tools: docs/search.md). */
  private readonly vectors: VectorTable;
  /** Row lengths and categories, until the next write. */
  private catalogue: CatalogueStatistics | undefined;

  private constructor(private readonly db: SqliteDatabase) {
    this.statements = {
      byId: db.prepare<{ rowid: number }>("SELECT rowid FROM tools WHERE tool_id = ?"),
      insertTool: db.prepare("INSERT INTO tools (rowid, tool_id, type, quality, length, summary) VALUES (?, ?, ?, ?, ?, ?)"),
      deleteTool: db.prepare("DELETE FROM tools WHERE rowid = ?"),
      insertTag: db.prepare("INSERT INTO tool_tags (rowid, tag) VALUES (?, ?)"),
      deleteTags: db.prepare("DELETE FROM tool_tags WHERE rowid = ?"),
      insertShort: db.prepare(
        `INSERT INTO short_text (rowid, ${SHORT_FIELDS.join(", ")}) VALUES (?, ${SHORT_FIELDS.map(() => "?").join(", ")})`,
      ),
      deleteShort: db.prepare("DELETE FROM short_text WHERE rowid = ?"),
      insertMan: db.prepare("INSERT INTO man_text (rowid, man) VALUES (?, ?)"),
      deleteMan: db.prepare("DELETE FROM man_text WHERE rowid = ?"),
      nextRowid: db.prepare<{ next: number }>("SELECT coalesce(max(rowid), 0) + 1 AS next FROM tools"),
      count: db.prepare<{ count: number }>("SELECT count(*) AS count FROM tools"),
      getMeta: db.prepare<{ value: string }>("SELECT value FROM meta WHERE key = ?"),
      setMeta: db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
      knownTerms: db.prepare<{ term: string }>("SELECT term FROM short_terms WHERE term IN (SELECT value FROM json_each(?))"),
      addTerm: db.prepare("INSERT OR IGNORE INTO short_terms (term) VALUES (?)"),
      shortFrequency: db.prepare<{ doc: number }>("SELECT doc FROM short_vocabulary WHERE term = ?"),
      manFrequency: db.prepare<{ doc: number }>("SELECT doc FROM man_vocabulary WHERE term = ?"),
      summaries: db.prepare<{ rowid: number; tool_id: string; quality: number; summary: string }>(
        "SELECT rowid, tool_id, quality, summary FROM tools WHERE rowid IN (SELECT value FROM json_each(?))",
      ),
      rowsOfType: db.prepare<{ rowid: number }>("SELECT rowid FROM tools WHERE type = ?"),
      rowsWithTag: db.prepare<{ rowid: number }>("SELECT rowid FROM tool_tags WHERE tag = ?"),
      // One row per type, read from the covering index: far cheaper than a row per tool at 100,000 tools.
      rowStatistics: db.prepare<{ rowids: string; lengths: string }>(
        "SELECT json_group_array(rowid) AS rowids, json_group_array(length) AS lengths FROM tools INDEXED BY tools_by_type GROUP BY type",
      ),
      termCounts: {
        short_text: db.prepare<{ rowid: number; field: ShortField; count: number }>(
          "SELECT doc AS rowid, col AS field, count(*) AS count FROM short_instances WHERE term = ? GROUP BY doc, col",
        ),
        man_text: db.prepare<{ rowid: number; count: number }>(
          "SELECT doc AS rowid, count(*) AS count FROM man_instances WHERE term = ? GROUP BY doc",
        ),
      },
    };
    this.tools = this.statements.count.get()!.count;
    this.termScores = new TermScores((_table, term) => this.termRows(term));
    this.vectors = new VectorTable(db);
  }

  /** An empty index. */
  static create(): ToolSearchIndex {
    const db = SqliteDatabase.inMemory();
    db.exec(SCHEMA);
    db.prepare("INSERT INTO meta (key, value) VALUES ('format', ?), ('revision', '0')").run(INDEX_FORMAT);
    return new ToolSearchIndex(db);
  }

  /** An index of these entries (the last entry of a tool id wins). */
  static build(entries: Iterable<SearchableEntry>, revision = 0): ToolSearchIndex {
    const index = ToolSearchIndex.create();
    index.db.transaction(() => {
      for (const entry of entries) index.upsert(entry);
      index.revision = revision;
    });
    return index;
  }

  /** The index a snapshot holds; throws a RangeError when the bytes are not a snapshot of this format. */
  static open(snapshot: Uint8Array): ToolSearchIndex {
    let db: SqliteDatabase;
    try {
      db = SqliteDatabase.fromBytes(snapshot);
      const format = db.prepare<{ value: string }>("SELECT value FROM meta WHERE key = 'format'").get()?.value;
      if (format !== INDEX_FORMAT) throw new RangeError(`index format ${format ?? "(none)"}, expected ${INDEX_FORMAT}`);
    } catch (error) {
      if (error instanceof RangeError) throw error;
      throw new RangeError(`not a search index snapshot: ${(error as Error).message}`);
    }
    return new ToolSearchIndex(db);
  }

  /** The whole index as one SQLite database file. */
  serialize(): Uint8Array {
    return this.db.serialize();
  }

  close(): void {
    this.db.close();
  }

  /** The catalog revision this index reflects. */
  get revision(): number {
    return Number(this.statements.getMeta.get("revision")?.value ?? 0);
  }

  set revision(revision: number) {
    this.statements.setMeta.run("revision", String(revision));
  }

  get size(): number {
    return this.tools;
  }

  /** Adds the tool or replaces its previous entry. */
  upsert(entry: SearchableEntry): void {
    const document = toSearchDocument(entry);
    this.contentChanged();
    this.db.transaction(() => {
      const existing = this.statements.byId.get(entry.tool_id)?.rowid;
      if (existing !== undefined) this.deleteRow(existing);
      const rowid = existing ?? this.statements.nextRowid.get()!.next;
      if (existing === undefined) this.tools++;
      const { summary } = document;
      this.statements.insertTool.run(
        rowid,
        summary.tool_id,
        summary.tool_type,
        document.quality,
        weightedLength(document),
        JSON.stringify(summary),
      );
      for (const tag of new Set(summary.tool_tags)) this.statements.insertTag.run(rowid, tag);
      this.statements.insertShort.run(rowid, ...SHORT_FIELDS.map((field) => document.fields[field]));
      for (const term of new Set(SHORT_FIELDS.flatMap((field) => document.fields[field].split(" "))))
        if (term !== "") this.statements.addTerm.run(term);
      if (document.manPage !== "") this.statements.insertMan.run(rowid, document.manPage);
      const embedding = decodeEmbedding(entry.tool_search_embedding);
      if (embedding !== undefined) this.vectors.put(rowid, embedding.model, embedding.vector);
    });
  }

  remove(toolId: string): void {
    const rowid = this.statements.byId.get(toolId)?.rowid;
    if (rowid === undefined) return;
    this.contentChanged();
    this.db.transaction(() => this.deleteRow(rowid));
    this.tools--;
  }

  /** Runs `changes` in one transaction (a batch of deltas costs one commit). */
  batch(changes: () => void): void {
    this.db.transaction(changes);
  }

  /**
   * Best matches first (query-likelihood.ts, plus the category model: category-model.ts); equal
   * scores by quality, then tool id, so results are stable.
   */
  search(query: SearchQuery): SearchHit[] {
    const counts = queryTermCounts(query.q);
    const expansions = this.expansions(query.q, [...counts.keys()]);
    const weighted: WeightedTerm[] = [
      ...[...counts].map(([term, count]) => [term, queryTermWeight(count)] as const),
      ...expansions.map((term) => [term, EXPANSION_WEIGHT] as const),
    ];
    const terms = weighted.filter(([term]) => this.informative(term) && this.termScores.postings(TERMS, term).rowids.length > 0);
    if (terms.length === 0) return [];
    const statistics = this.statistics();
    const queryWeight = terms.reduce((sum, [, weight]) => sum + weight, 0);
    const evidence = terms.map(([term, weight]): CategoryEvidence => {
      const postings = this.termScores.postings(TERMS, term);
      postings.categoryCounts ??= statistics.categories.countsOf(postings.rowids, postings.counts);
      return { weight, catalogueShare: this.catalogueShare(postings.counts), counts: postings.categoryCounts };
    });
    const categoryScores = statistics.categories.scores(evidence);
    const { categoryOf } = statistics.categories;
    const adjust = (rowid: number, sum: number) =>
      sum + lengthPrior(queryWeight, statistics.lengths[rowid] ?? 0) + (categoryScores[categoryOf[rowid] ?? -1] ?? 0);
    const scores = new Map<number, number>();
    // Reported as the likelihood ratio per unit of query weight: positive, and comparable across queries.
    for (const row of this.termScores.top(TERMS, terms, CANDIDATES, this.filter(query), adjust)) {
      scores.set(row.rowid, Math.exp(row.score / queryWeight));
    }
    return this.rank(scores, query.limit);
  }

  /**
   * A term's weighted occurrences in every row that holds it, scored (`termEvidence`). Man pages
   * count only for fairly specific terms once the catalogue is large (see `informative`).
   */
  private termRows(term: string): ScoredRow[] {
    const counts = new Map<number, number>();
    for (const row of this.statements.termCounts.short_text.all(term)) {
      counts.set(row.rowid, (counts.get(row.rowid) ?? 0) + FIELD_WEIGHTS[row.field] * row.count);
    }
    if (this.size < MIN_TOOLS_FOR_PRUNING || this.frequency("man_text", term) <= MAX_MAN_PAGE_TERM_SHARE * this.size) {
      for (const row of this.statements.termCounts.man_text.all(term)) {
        counts.set(row.rowid, (counts.get(row.rowid) ?? 0) + MAN_PAGE_WEIGHT * row.count);
      }
    }
    const share = this.catalogueShare(counts.values());
    return [...counts].map(([rowid, count]) => ({ rowid, count, score: termEvidence(count, share) }));
  }

  /** A term's share of all the catalogue's (weighted) text, from its weighted counts in every row. */
  private catalogueShare(counts: Iterable<number>): number {
    let total = 0;
    for (const count of counts) total += count;
    return total / Math.max(this.statistics().totalLength, total);
  }

  private statistics(): CatalogueStatistics {
    if (this.catalogue !== undefined) return this.catalogue;
    const types = this.statements.rowStatistics
      .all()
      .map((row) => ({ rowids: JSON.parse(row.rowids) as number[], lengths: JSON.parse(row.lengths) as number[] }));
    const size = types.reduce((max, type) => type.rowids.reduce((most, rowid) => Math.max(most, rowid + 1), max), 0);
    const lengths = new Float64Array(size);
    const categoryOf = new Int32Array(size).fill(-1);
    const categoryLengths = new Float64Array(types.length);
    for (const [category, type] of types.entries()) {
      for (const [i, rowid] of type.rowids.entries()) {
        lengths[rowid] = type.lengths[i]!;
        categoryOf[rowid] = category;
        categoryLengths[category]! += type.lengths[i]!;
      }
    }
    const totalLength = categoryLengths.reduce((sum, length) => sum + length, 0);
    this.catalogue = { lengths, totalLength, categories: new CategoryModel(categoryOf, categoryLengths) };
    return this.catalogue;
  }

  /** Synonyms of the query's terms, and for a term no tool uses, the known terms one typo away. */
  private expansions(text: string, queryTerms: readonly string[]): string[] {
    const expanded = new Set<string>();
    if (queryTerms.length <= MAX_TERMS_FOR_SYNONYMS) {
      for (const synonym of this.synonyms.ofPhrasesIn(text)) expanded.add(synonym);
      for (const term of queryTerms) for (const synonym of this.synonyms.of(term)) expanded.add(synonym);
    }
    // Two look-ups in all: which query terms some tool uses, then which typo variants of the others.
    const knownQueryTerms = this.knownAmong(queryTerms);
    const variants = queryTerms.filter((term) => !knownQueryTerms.has(term)).flatMap((term) => fuzzyVariants(term));
    for (const variant of this.knownAmong(variants)) expanded.add(variant);
    for (const term of queryTerms) expanded.delete(term);
    return [...expanded];
  }

  /** Those of `terms` that some tool's short fields use. */
  private knownAmong(terms: readonly string[]): Set<string> {
    if (terms.length === 0) return new Set();
    return new Set(this.statements.knownTerms.all(JSON.stringify(terms)).map((row) => row.term));
  }

  /**
   * Whether a term is worth ranking by: every row that holds it is scored, so a term that most
   * tools use (it barely moves a ranking) would cost one scored row per tool. Such terms are left
   * out once the catalogue is large enough for that to matter (and a term common in man pages
   * counts only where the short fields use it: `termRows`).
   */
  private informative(term: string): boolean {
    return this.size < MIN_TOOLS_FOR_PRUNING || this.frequency("short_text", term) <= MAX_SHORT_TERM_SHARE * this.size;
  }

  private frequency(table: Table, term: string): number {
    const key = `${table}\0${term}`;
    let frequency = this.frequencies.get(key);
    if (frequency === undefined) {
      const vocabulary = table === "short_text" ? this.statements.shortFrequency : this.statements.manFrequency;
      frequency = vocabulary.get(term)?.doc ?? 0;
      // Words no tool uses are not kept (a client can send any number of them); the rest is bounded too.
      if (this.frequencies.size >= MAX_CACHED_FREQUENCIES) this.frequencies.clear();
      if (frequency > 0) this.frequencies.set(key, frequency);
    }
    return frequency;
  }

  /** Which rows the query's `type` and `tag` filters keep. */
  private filter(query: SearchQuery): (rowid: number) => boolean {
    const sets: Set<number>[] = [];
    if (query.type !== undefined) sets.push(new Set(this.statements.rowsOfType.all(query.type).map((row) => row.rowid)));
    if (query.tag !== undefined) sets.push(new Set(this.statements.rowsWithTag.all(query.tag).map((row) => row.rowid)));
    return (rowid) => sets.every((set) => set.has(rowid));
  }

  private rank(scores: Map<number, number>, limit: number): SearchHit[] {
    if (scores.size === 0 || limit <= 0) return [];
    // Only rows that can reach the first `limit` are read: those scoring at least the limit-th best
    // score, less the tie tolerance (twice: a tie with a tie).
    const byScore = [...scores.values()].sort((a, b) => b - a);
    const cut = byScore[Math.min(limit, byScore.length) - 1]! * (1 - 2 * TIE_TOLERANCE);
    const contenders = [...scores].flatMap(([rowid, score]) => (score >= cut ? [rowid] : []));
    const rows = this.statements.summaries.all(JSON.stringify(contenders));
    const ranked = rows.map((row) => ({ ...row, score: scores.get(row.rowid)! }));
    ranked.sort((a, b) => {
      const tie = Math.abs(a.score - b.score) <= TIE_TOLERANCE * Math.max(a.score, b.score);
      return (tie ? 0 : b.score - a.score) || b.quality - a.quality || (a.tool_id < b.tool_id ? -1 : a.tool_id > b.tool_id ? 1 : 0);
    });
    return ranked
      .slice(0, limit)
      .map((row) => ({ ...(JSON.parse(row.summary) as ToolSummary), score: Number(row.score.toPrecision(SCORE_DIGITS)) }));
  }

  /** Cached scores and frequencies hold for one state of the index only. */
  private contentChanged(): void {
    this.termScores.clear();
    this.frequencies.clear();
    this.catalogue = undefined;
  }

  /** The tools whose vectors of `model` are nearest `vector`, best first (score: cosine similarity); `type` and `tag` filter as in `search`. */
  nearest(model: string, vector: Float32Array, query: Omit<SearchQuery, "q">): SearchHit[] {
    const rows = this.vectors.nearest(model, vector, query.limit, query);
    if (rows.length === 0) return [];
    const summaries = new Map(
      this.statements.summaries.all(JSON.stringify(rows.map((row) => row.rowid))).map((row) => [row.rowid, row.summary]),
    );
    return rows.map((row) => ({
      ...(JSON.parse(summaries.get(row.rowid)!) as ToolSummary),
      score: Number(row.similarity.toPrecision(SCORE_DIGITS)),
    }));
  }

  private deleteRow(rowid: number): void {
    this.vectors.delete(rowid);
    this.statements.deleteShort.run(rowid);
    this.statements.deleteMan.run(rowid);
    this.statements.deleteTags.run(rowid);
    this.statements.deleteTool.run(rowid);
  }
}

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE tools (rowid INTEGER PRIMARY KEY, tool_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, quality REAL NOT NULL, length REAL NOT NULL, summary TEXT NOT NULL);
  CREATE INDEX tools_by_type ON tools (type, length);
  CREATE TABLE tool_tags (rowid INTEGER NOT NULL, tag TEXT NOT NULL);
  CREATE INDEX tool_tags_by_tag ON tool_tags (tag, rowid);
  CREATE INDEX tool_tags_by_rowid ON tool_tags (rowid);
  CREATE VIRTUAL TABLE short_text USING fts5 (${SHORT_FIELDS.join(", ")}, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0');
  CREATE VIRTUAL TABLE man_text USING fts5 (man, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 0');
  CREATE VIRTUAL TABLE short_vocabulary USING fts5vocab (short_text, 'row');
  CREATE VIRTUAL TABLE man_vocabulary USING fts5vocab (man_text, 'row');
  CREATE VIRTUAL TABLE short_instances USING fts5vocab (short_text, 'instance');
  CREATE VIRTUAL TABLE man_instances USING fts5vocab (man_text, 'instance');
  CREATE TABLE short_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
`;

/** A tool's length as the ranking weighs it (query-likelihood.ts): its terms, each counted at its field's weight. */
function weightedLength(document: SearchDocument): number {
  const count = (text: string) => (text === "" ? 0 : text.split(" ").length);
  return SHORT_FIELDS.reduce(
    (sum, field) => sum + FIELD_WEIGHTS[field] * count(document.fields[field]),
    MAN_PAGE_WEIGHT * count(document.manPage),
  );
}
