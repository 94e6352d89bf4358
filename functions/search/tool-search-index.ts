import { rmSync } from "node:fs";
import { CATALOGUE_STATISTICS_SCHEMA, CatalogueStatistics, type RowStatistics } from "./catalogue-statistics.js";
import { CategoryModel, type CategoryEvidence } from "./category-model.js";
import { INVERTED_INDEX_SCHEMA, InvertedIndex, type InvertedIndexBuilder } from "./inverted-index.js";
import { diversify, type Aspect, type Diversified } from "./diversify.js";
import { planQuery } from "./query-plan.js";
import { indexKey, toSearchDocument, type SearchableEntry, type SearchDocument, type ToolSummary } from "./search-document.js";
import { MAX_SEARCH_DEPTH, type SearchQuery } from "./search-query.js";
import { SqliteDatabase } from "./sqlite-driver.js";
import { SynonymTable } from "./synonyms.js";
import { TermScores, type RowKeys, type TermEntry, type WeightedTerm } from "./term-scores.js";
import { decodeEmbedding } from "./tool-embedding.js";
import { VectorTable } from "./vector-table.js";

export type SearchHit = ToolSummary & {
  score: number;
  /** Tools whose descriptions use the same words as this one's (clones, the same model under another name), shown once: "n similar". */
  similar_tool_ids?: string[];
};

/** The best this many matches are ranked: a fixed pool, so every page of one query ranks alike. */
const CANDIDATES = 2 * MAX_SEARCH_DEPTH;
/** The best this many matches of each ask of a request join the pool (diversify.ts). */
const ASPECT_CANDIDATES = 20;
/** Tool ids kept in memory for naming results' clones (about 100 bytes each). */
const MAX_KEPT_TOOL_IDS = 50_000;
/** Scores are reported to significant digits, not decimals. */
const SCORE_DIGITS = 6;
/**
 * Pruning of common terms (see `informative`) starts at this catalogue size: below it, a term's
 * rows cost next to nothing to score, and a common word still tells tools apart a little.
 */
const MIN_TOOLS_FOR_PRUNING = 1000;
const MAX_SHORT_TERM_SHARE = 0.5;
const MAX_MAN_PAGE_TERM_SHARE = 0.1;

export const INDEX_FORMAT = "agent-tools-search/3";

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE tools (rowid INTEGER PRIMARY KEY, tool_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, quality REAL NOT NULL,
    length REAL NOT NULL, duplicate_group INTEGER NOT NULL, summary TEXT NOT NULL, short_terms BLOB NOT NULL, man_terms BLOB NOT NULL);
  ${INVERTED_INDEX_SCHEMA}
  ${CATALOGUE_STATISTICS_SCHEMA}
`;

/**
 * The search index of the latest entry of every tool, in one SQLite database (in memory, or a
 * file read as queries need it): tools, their postings (inverted-index.ts) and the catalogue's
 * statistics. The whole index serialises to one file (`serialize`), which is the snapshot that a
 * cold search instance opens (`open`, `openFile`) instead of reading every entry; see
 * docs/search.md, "The index as an artifact". It also records the catalog revision it reflects,
 * so a loaded snapshot knows which changes to apply. Writes keep every cache in step (the term
 * scores and the statistics are patched for the tool written, not dropped).
 */
export class ToolSearchIndex {
  private readonly synonyms = new SynonymTable();
  private readonly statements;
  private readonly postings: InvertedIndex;
  private tools: number;
  private loadedStatistics: CatalogueStatistics | undefined;
  /** Each query term's scores per row, patched on writes (see term-scores.ts). */
  private readonly termScores: TermScores;
  private readonly categories = new CategoryModel(() => this.statistics);
  /** Tools' vectors for hybrid search (absent unless the registry embeds tools: docs/search.md). */
  private readonly vectors: VectorTable;
  /** The snapshot file this index was opened from, removed on close (`openFile`). */
  private ownedFile: string | undefined;
  /** Tool ids by rowid, of rows results named lately (a rowid's tool changes only when it is removed). */
  private readonly knownIds = new Map<number, string>();

  private constructor(private readonly db: SqliteDatabase) {
    this.statements = {
      byId: db.prepare<{ rowid: number; short_terms: Uint8Array; man_terms: Uint8Array }>(
        "SELECT rowid, short_terms, man_terms FROM tools WHERE tool_id = ?",
      ),
      insertTool: db.prepare(
        "INSERT INTO tools (rowid, tool_id, type, quality, length, duplicate_group, " +
          "summary, short_terms, man_terms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
      ),
      deleteTool: db.prepare("DELETE FROM tools WHERE rowid = ?"),
      nextRowid: db.prepare<{ next: number }>("SELECT coalesce(max(rowid), 0) + 1 AS next FROM tools"),
      count: db.prepare<{ count: number }>("SELECT count(*) AS count FROM tools"),
      getMeta: db.prepare<{ value: string }>("SELECT value FROM meta WHERE key = ?"),
      setMeta: db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
      summaries: db.prepare<{ rowid: number; summary: string }>(
        "SELECT rowid, summary FROM tools WHERE rowid IN (SELECT value FROM json_each(?))",
      ),
      rowStatistics: db.prepare<RowStatistics & { rowid: number }>(
        "SELECT rowid, type, length, quality, duplicate_group AS duplicateGroup FROM tools",
      ),
      toolIds: db.prepare<{ rowid: number; tool_id: string }>(
        "SELECT rowid, tool_id FROM tools WHERE rowid IN (SELECT value FROM json_each(?))",
      ),
    };
    this.postings = new InvertedIndex(db);
    // Kept with a snapshot, so that opening one does not read every row of its tools.
    this.tools = Number(this.statements.getMeta.get("tools")?.value ?? this.statements.count.get()!.count);
    this.termScores = new TermScores({
      postings: (key) => this.postings.postings(key),
      documents: (key) => this.postings.statistics(key).documents,
      manPagesCount: (manDocuments) => this.size < MIN_TOOLS_FOR_PRUNING || manDocuments <= MAX_MAN_PAGE_TERM_SHARE * this.size,
      statistics: () => this.statistics,
    });
    this.vectors = new VectorTable(db);
  }

  /** An empty index. */
  static create(): ToolSearchIndex {
    return ToolSearchIndex.createIn(SqliteDatabase.inMemory());
  }

  /** An index of these entries (the last entry of a tool id wins). */
  static build(entries: Iterable<SearchableEntry>, revision = 0): ToolSearchIndex {
    const builder = ToolSearchIndex.builder();
    builder.add(entries);
    return builder.finish(revision);
  }

  /**
   * A new index filled in batches as entries arrive (a scan of the table, page by page), its
   * postings written once at the end: how a cold instance without a snapshot builds one.
   */
  static builder(): ToolSearchIndexBuilder {
    return new ToolSearchIndexBuilder(ToolSearchIndex.create());
  }

  /** The index a snapshot holds; throws a RangeError when the bytes are not a snapshot of this format. */
  static open(snapshot: Uint8Array): ToolSearchIndex {
    return ToolSearchIndex.opened(() => SqliteDatabase.fromBytes(snapshot));
  }

  /**
   * The index in a snapshot file, read from disk as searches need its pages (a cold instance
   * reads a few postings, not the whole file). The file becomes this index's own: writes go to
   * it, and it is removed when the index closes (or when it is no snapshot).
   */
  static openFile(path: string): ToolSearchIndex {
    try {
      const index = ToolSearchIndex.opened(() => {
        const db = SqliteDatabase.openFile(path);
        // The file is a private copy of a snapshot: nothing to make durable, and no other reader.
        db.exec("PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE");
        return db;
      });
      index.ownedFile = path;
      return index;
    } catch (error) {
      rmSync(path, { force: true });
      throw error;
    }
  }

  private static createIn(db: SqliteDatabase): ToolSearchIndex {
    db.exec(SCHEMA);
    db.prepare("INSERT INTO meta (key, value) VALUES ('format', ?), ('revision', '0')").run(INDEX_FORMAT);
    return new ToolSearchIndex(db);
  }

  private static opened(open: () => SqliteDatabase): ToolSearchIndex {
    let db: SqliteDatabase | undefined;
    try {
      db = open();
      const format = db.prepare<{ value: string }>("SELECT value FROM meta WHERE key = 'format'").get()?.value;
      if (format !== INDEX_FORMAT) throw new RangeError(`index format ${format ?? "(none)"}, expected ${INDEX_FORMAT}`);
    } catch (error) {
      db?.close();
      if (error instanceof RangeError) throw error;
      throw new RangeError(`not a search index snapshot: ${(error as Error).message}`);
    }
    return new ToolSearchIndex(db);
  }

  /** The whole index as one SQLite database file. */
  serialize(): Uint8Array {
    this.statistics.save(this.db);
    this.statements.setMeta.run("tools", String(this.tools));
    return this.db.serialize();
  }

  close(): void {
    this.db.close();
    if (this.ownedFile !== undefined) rmSync(this.ownedFile, { force: true });
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
    this.changeRow(entry.tool_id, (rowid) => {
      const shortTerms = this.postings.add(rowid, document.shortKeys);
      const manTerms = this.postings.add(rowid, document.manKeys);
      this.insertRow(rowid, entry, document, shortTerms, manTerms);
      return document;
    });
  }

  remove(toolId: string): void {
    if (this.statements.byId.get(toolId) !== undefined) this.changeRow(toolId, () => undefined);
  }

  /** Runs `changes` in one transaction (a batch of deltas costs one commit). */
  batch(changes: () => void): void {
    try {
      this.db.transaction(changes);
    } catch (error) {
      // The caches were patched for changes the database has just undone.
      this.forgetCaches();
      throw error;
    }
  }

  /**
   * Replaces the row of `toolId` (if any) by what `write` puts at its rowid (nothing, for a
   * removal), and patches the caches for both.
   */
  private changeRow(toolId: string, write: (rowid: number) => SearchDocument | undefined): void {
    const statistics = this.statistics;
    const existing = this.statements.byId.get(toolId);
    const rowid = existing?.rowid ?? this.statements.nextRowid.get()!.next;
    const categoryBefore = statistics.categoryOf(rowid);
    let before: RowKeys | undefined;
    let after: SearchDocument | undefined;
    this.db.transaction(() => {
      if (existing !== undefined) {
        before = { short: this.postings.remove(rowid, existing.short_terms), man: this.postings.remove(rowid, existing.man_terms) };
        this.deleteRow(rowid);
      }
      after = write(rowid);
    });
    this.tools += Number(after !== undefined) - Number(existing !== undefined);
    if (after === undefined) {
      statistics.delete(rowid);
      // Its rowid may be given to the next new tool.
      this.knownIds.delete(rowid);
    } else statistics.set(rowid, rowStatistics(after));
    this.termScores.rowChanged(
      rowid,
      before,
      after === undefined ? undefined : { short: after.shortKeys, man: after.manKeys },
      categoryBefore,
      statistics.categoryOf(rowid),
    );
  }

  /** Inserts a tool's rows (not its postings: the caller has added them and passes its term lists). */
  insertRow(rowid: number, entry: SearchableEntry, document: SearchDocument, shortTerms: Uint8Array, manTerms: Uint8Array): void {
    const { summary } = document;
    this.statements.insertTool.run(
      rowid,
      summary.tool_id,
      summary.tool_type,
      document.quality,
      document.length,
      document.duplicateGroup,
      JSON.stringify(summary),
      shortTerms,
      manTerms,
    );
    const embedding = decodeEmbedding(entry.tool_search_embedding);
    if (embedding !== undefined) this.vectors.put(rowid, embedding.model, embedding.vector);
  }

  /** A builder's rows are in, with these statistics. */
  builtRows(statistics: CatalogueStatistics): void {
    this.termScores.clear();
    this.knownIds.clear();
    this.loadedStatistics = statistics;
    this.tools = this.statements.count.get()!.count;
  }

  /** The postings builder of this (empty) index. */
  postingsBuilder(): InvertedIndexBuilder {
    return this.postings.builder();
  }

  /** Runs `body` in a transaction of the database (the builder's batches). */
  transaction(body: () => void): void {
    this.db.transaction(body);
  }

  /**
   * Best matches first (query-likelihood.ts, plus the category model: category-model.ts), in the
   * order that covers the request's asks, near-duplicates shown once (diversify.ts); equal scores
   * by quality, then tool id, so results are stable.
   */
  search(query: SearchQuery): SearchHit[] {
    if (query.limit <= 0) return [];
    const plan = planQuery(query.q, this.synonyms, (stemmed) => this.knownTerms(stemmed));
    const filter = this.filter(query);
    const whole = this.relevance(plan.terms, filter, CANDIDATES);
    if (whole === undefined) return [];
    const asks = plan.clauses.flatMap((terms) => {
      const relevance = this.relevance(terms, filter, ASPECT_CANDIDATES);
      return relevance === undefined ? [] : [{ weight: relevance.weight, relevance: relevance.relative }];
    });
    const weight = asks.reduce((sum, ask) => sum + ask.weight, 0);
    const aspects: Aspect[] = asks.length < 2 ? [] : asks.map((ask) => ({ share: ask.weight / weight, relevance: ask.relevance }));
    const statistics = this.statistics;
    const ranked = diversify(
      whole.relative,
      aspects,
      {
        quality: (rowid) => statistics.quality(rowid),
        duplicateGroup: (rowid) => statistics.duplicateGroup(rowid),
        toolIds: (rowids) => this.toolIds(rowids),
      },
      query.limit,
    );
    return this.hits(ranked, whole.scores);
  }

  /**
   * The best `limit` rows for these terms: each one's reported score (the likelihood ratio per
   * unit of query weight: positive, comparable across queries) and its relevance relative to the
   * best row's (1 for it); undefined when no row holds a term worth ranking by.
   */
  private relevance(
    planned: readonly WeightedTerm[],
    filter: (rowid: number) => boolean,
    limit: number,
  ): { weight: number; scores: Map<number, number>; relative: Map<number, number> } | undefined {
    const terms = planned.flatMap(([term, weight]) => {
      const entry = this.termScores.entry(term);
      return entry.size > 0 && this.informative(entry) ? [{ term, weight, entry }] : [];
    });
    if (terms.length === 0) return undefined;
    const statistics = this.statistics;
    const weight = terms.reduce((sum, term) => sum + term.weight, 0);
    const evidence = terms.map(({ weight, entry }): CategoryEvidence => {
      entry.categoryCounts ??= this.categories.countsOf(entry.rowids.subarray(0, entry.size), entry.counts.subarray(0, entry.size));
      return { weight, catalogueShare: this.termScores.share(entry), counts: entry.categoryCounts };
    });
    const categoryScores = this.categories.scores(evidence);
    const adjust = (rowid: number, sum: number) =>
      sum + weight * statistics.prior(rowid) + (categoryScores[statistics.categoryOf(rowid)] ?? 0);
    const rows = this.termScores.top(
      terms.map(({ term, weight }) => [term, weight] as const),
      limit,
      filter,
      adjust,
    );
    if (rows.length === 0) return undefined;
    const best = rows[0]!.score;
    return {
      weight,
      scores: new Map(rows.map((row) => [row.rowid, Math.exp(row.score / weight)])),
      relative: new Map(rows.map((row) => [row.rowid, Math.exp((row.score - best) / weight)])),
    };
  }

  /** The results' summaries, in order; a result an ask alone found has the score of its whole-request match, if any. */
  private hits(ranked: Diversified[], scores: Map<number, number>): SearchHit[] {
    const summaries = new Map(
      this.statements.summaries
        .all(JSON.stringify(ranked.map((result) => result.rowid)))
        .map((row) => [row.rowid, JSON.parse(row.summary) as ToolSummary]),
    );
    const similarIds = this.toolIds(ranked.flatMap((result) => result.similar));
    return ranked.map(({ rowid, similar }) => ({
      ...summaries.get(rowid)!,
      score: Number((scores.get(rowid) ?? 0).toPrecision(SCORE_DIGITS)),
      ...(similar.length === 0 ? {} : { similar_tool_ids: similar.map((other) => similarIds.get(other)!) }),
    }));
  }

  /**
   * The tool ids of rows, from the ones kept (rows named by recent results: a clone's group is named with
   * every search that finds it) or the table.
   */
  private toolIds(rowids: readonly number[]): Map<number, string> {
    const missing = rowids.filter((rowid) => !this.knownIds.has(rowid));
    if (missing.length > 0) {
      if (this.knownIds.size + missing.length > MAX_KEPT_TOOL_IDS) this.knownIds.clear();
      for (const row of this.statements.toolIds.all(JSON.stringify(missing))) this.knownIds.set(row.rowid, row.tool_id);
    }
    return new Map(rowids.map((rowid) => [rowid, this.knownIds.get(rowid)!]));
  }

  private get statistics(): CatalogueStatistics {
    this.loadedStatistics ??= CatalogueStatistics.load(this.db) ?? CatalogueStatistics.ofRows(this.statements.rowStatistics.all());
    return this.loadedStatistics;
  }

  /** Those of the stemmed `terms` that some tool's short fields use. */
  private knownTerms(terms: readonly string[]): Set<string> {
    const known = this.postings.known(terms.map((term) => indexKey("s", term)));
    return new Set(terms.filter((term) => known.has(indexKey("s", term))));
  }

  /**
   * Whether a term is worth ranking by: every row that holds it is scored, so a term that most
   * tools use (it barely moves a ranking) would cost one scored row per tool. Such terms are left
   * out once the catalogue is large enough for that to matter (and a term common in man pages
   * counts only where the short fields use it: `manPagesCount` in the constructor).
   */
  private informative(entry: TermEntry): boolean {
    return this.size < MIN_TOOLS_FOR_PRUNING || entry.shortDocuments <= MAX_SHORT_TERM_SHARE * this.size;
  }

  /** Which rows the query's `type` and `tag` filters keep (their exact values are index keys: search-document.ts). */
  private filter(query: Omit<SearchQuery, "q">): (rowid: number) => boolean {
    const sets: Set<number>[] = [];
    if (query.type !== undefined) sets.push(new Set(this.postings.postings(indexKey("y", query.type)).rowids));
    if (query.tag !== undefined) sets.push(new Set(this.postings.postings(indexKey("t", query.tag)).rowids));
    if (sets.length === 0) return () => true;
    return (rowid) => sets.every((set) => set.has(rowid));
  }

  /** Caches that must be read again from the database (after a rolled-back batch, or a bulk load). */
  private forgetCaches(): void {
    this.loadedStatistics = undefined;
    this.knownIds.clear();
    this.termScores.clear();
    this.tools = this.statements.count.get()!.count;
  }

  /**
   * The tools whose vectors of `model` are nearest `vector`, best first (score: cosine similarity); `type`
   * and `tag` filter as in `search`.
   */
  nearest(model: string, vector: Float32Array, query: Omit<SearchQuery, "q">): SearchHit[] {
    const rows = this.vectors.nearest(model, vector, query.limit, this.filter(query));
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
    this.statements.deleteTool.run(rowid);
  }
}

/**
 * Fills a new index in batches: each batch's rows go in at once, their postings are gathered in
 * memory and written when the index is finished (inverted-index.ts), so building costs one pass
 * over the entries. An entry whose tool id came before replaces it (applied at the end).
 */
export class ToolSearchIndexBuilder {
  private readonly postings: InvertedIndexBuilder;
  private readonly rows = new Set<string>();
  private readonly statistics = CatalogueStatistics.empty();
  private readonly replacements = new Map<string, SearchableEntry>();
  private nextRowid = 1;

  constructor(private readonly index: ToolSearchIndex) {
    this.postings = index.postingsBuilder();
  }

  add(entries: Iterable<SearchableEntry>): void {
    this.index.transaction(() => {
      for (const entry of entries) {
        if (this.rows.has(entry.tool_id)) {
          this.replacements.set(entry.tool_id, entry);
          continue;
        }
        this.rows.add(entry.tool_id);
        const rowid = this.nextRowid++;
        const document = toSearchDocument(entry);
        const shortTerms = this.postings.add(rowid, document.shortKeys);
        const manTerms = this.postings.add(rowid, document.manKeys);
        this.index.insertRow(rowid, entry, document, shortTerms, manTerms);
        this.statistics.set(rowid, rowStatistics(document));
      }
    });
  }

  /** Drops what was added (the entries could not all be read). */
  abandon(): void {
    this.index.close();
  }

  /** The index, holding every entry added, at `revision`. */
  finish(revision = 0): ToolSearchIndex {
    this.index.transaction(() => {
      this.postings.finish();
      this.index.builtRows(this.statistics);
      for (const entry of this.replacements.values()) this.index.upsert(entry);
      this.index.revision = revision;
    });
    return this.index;
  }
}

/** What the catalogue's statistics keep of a tool (catalogue-statistics.ts). */
function rowStatistics(document: SearchDocument): RowStatistics {
  return { type: document.summary.tool_type, length: document.length, quality: document.quality, duplicateGroup: document.duplicateGroup };
}
