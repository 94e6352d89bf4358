import MiniSearch, { type SearchResult } from "minisearch";
import { toSearchDocument, type SearchDocument, type SearchableEntry, type ToolSummary } from "./search-document.js";
import { DocumentFrequency } from "./document-frequency.js";
import { distinctTerms, normaliseTerm, tokenize } from "./search-terms.js";

export interface SearchQuery {
  q: string;
  limit: number;
  /** Exact `tool_type`. */
  type?: string;
  /** Exact member of `tool_tags`. */
  tag?: string;
}

export type SearchHit = ToolSummary & { score: number };

type IndexedField = "id" | "tagText" | "description" | "type" | "manPage";

/** BM25 field weights: a word in the id says most about a tool, one in its man page least. */
const FIELD_BOOST: Record<IndexedField, number> = { id: 3, tagText: 2.5, description: 2, type: 1, manPage: 0.5 };

/** Indexed fields named differently in the document (the others share the document's name). */
const FIELD_SOURCE: Partial<Record<string, keyof SearchDocument>> = {
  id: "tool_id",
  description: "tool_search_description",
  type: "tool_type",
};

/**
 * Longer terms also match as prefixes ("summar" finds "summarizer") and with one typo, but only
 * in the short fields: expanding them over man pages would multiply matches for little gain.
 * Short terms ("csv", "pdf") match exactly.
 */
const PREFIX_MIN_LENGTH = 4;
const FUZZY_MIN_LENGTH = 5;
const FUZZY_EDITS = 1;
const SHORT_FIELDS: IndexedField[] = ["id", "tagText", "description", "type"];

/**
 * A term found in more than half of the man pages (boilerplate such as "json", "input", "returns")
 * barely changes a BM25 ranking yet touches most documents, so it is not looked up in man pages
 * once the catalogue is large enough for that to cost something.
 */
const MAN_PAGE_STOP_SHARE = 0.5;
const MAN_PAGE_STOP_MIN_TOOLS = 100;

/** An in-memory BM25 index of the latest entry of every tool (minisearch). */
export class ToolSearchIndex {
  private readonly index = new MiniSearch<SearchDocument>({
    idField: "tool_id",
    fields: Object.keys(FIELD_BOOST),
    storeFields: ["tool_id", "version", "tool_search_description", "tool_tags", "tool_type"],
    extractField: (document, field) => document[FIELD_SOURCE[field] ?? (field as keyof SearchDocument)],
    // Ids like `pdf.textExtract_v2` are found whole and by their parts ("text extract").
    tokenize: (text, field) => tokenize(text, field === "id"),
    // Man pages arrive as normalised terms already (see toSearchDocument).
    processTerm: (term, field) => (field === "manPage" ? term : normaliseTerm(term)),
    searchOptions: { boost: FIELD_BOOST },
  });
  private readonly manPageFrequency = new DocumentFrequency();

  static build(entries: Iterable<SearchableEntry>): ToolSearchIndex {
    const built = new ToolSearchIndex();
    const documents = new Map<string, SearchDocument>();
    for (const entry of entries) documents.set(entry.tool_id, toSearchDocument(entry));
    built.index.addAll([...documents.values()]);
    for (const document of documents.values()) built.manPageFrequency.set(document.tool_id, manPageTerms(document));
    return built;
  }

  get size(): number {
    return this.index.documentCount;
  }

  /** Adds the tool or replaces its previous entry. */
  upsert(entry: SearchableEntry): void {
    const document = toSearchDocument(entry);
    if (this.index.has(document.tool_id)) this.index.replace(document);
    else this.index.add(document);
    this.manPageFrequency.set(document.tool_id, manPageTerms(document));
  }

  remove(toolId: string): void {
    if (this.index.has(toolId)) this.index.discard(toolId);
    this.manPageFrequency.delete(toolId);
  }

  /** Best matches first; equal scores in tool id order so results are stable. */
  search(query: SearchQuery): SearchHit[] {
    const expanded = {
      queries: [query.q],
      fields: SHORT_FIELDS,
      prefix: (term: string) => term.length >= PREFIX_MIN_LENGTH,
      fuzzy: (term: string) => (term.length >= FUZZY_MIN_LENGTH ? FUZZY_EDITS : false),
    };
    const manPageTerms = this.informativeManPageTerms(query.q);
    // Terms already normalised: processing them again could stem them twice.
    const exactInManPage = { queries: [manPageTerms.join(" ")], fields: ["manPage"], processTerm: (term: string) => term };
    const queries = manPageTerms.length > 0 ? [expanded, exactInManPage] : [expanded];
    const filtered = query.type !== undefined || query.tag !== undefined;
    const matches = this.index.search({ combineWith: "OR", queries }, {
      ...(filtered && {
        filter: (result: SearchResult) =>
          (query.type === undefined || result.tool_type === query.type) &&
          (query.tag === undefined || (result.tool_tags as string[]).includes(query.tag)),
      }),
    });
    return topWithStableTies(matches, query.limit).map(toHit);
  }

  private informativeManPageTerms(q: string): string[] {
    const size = this.index.documentCount;
    if (size < MAN_PAGE_STOP_MIN_TOOLS) return distinctTerms(q);
    return distinctTerms(q).filter((term) => this.manPageFrequency.of(term) <= MAN_PAGE_STOP_SHARE * size);
  }
}

function manPageTerms(document: SearchDocument): string[] {
  return document.manPage === "" ? [] : document.manPage.split(" ");
}

function toHit(result: SearchResult): SearchHit {
  return {
    tool_id: result.tool_id as string,
    version: result.version as string,
    score: Math.round(result.score * 10_000) / 10_000,
    tool_search_description: result.tool_search_description as string,
    tool_tags: result.tool_tags as string[],
    tool_type: result.tool_type as string,
  };
}

/**
 * The first `limit` of results already sorted by score, with equal scores in tool id order. Only
 * the head and the results tied with its last score are re-sorted, not all matches.
 */
function topWithStableTies(sorted: SearchResult[], limit: number): SearchResult[] {
  let end = Math.min(limit, sorted.length);
  const lastScore = sorted[end - 1]?.score;
  while (end < sorted.length && sorted[end]!.score === lastScore) end++;
  return sorted
    .slice(0, end)
    .sort((a, b) => b.score - a.score || compareIds(a.id as string, b.id as string))
    .slice(0, limit);
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
