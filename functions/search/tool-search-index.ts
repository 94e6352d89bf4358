import MiniSearch, { type SearchResult } from "minisearch";
import { toSearchDocument, type SearchDocument, type SearchableEntry, type ToolSummary } from "./search-document.js";
import { normaliseTerm, tokenize } from "./search-terms.js";

export interface SearchQuery {
  q: string;
  limit: number;
  /** Exact `tool_type`. */
  type?: string;
  /** Exact member of `tool_tags`. */
  tag?: string;
}

export type SearchHit = ToolSummary & { score: number };

type IndexedField = "idText" | "tagText" | "description" | "type" | "manPage";

/** BM25 field weights: a word in the id says most about a tool, one in its man page least. */
const FIELD_BOOST: Record<IndexedField, number> = { idText: 3, tagText: 2.5, description: 2, type: 1, manPage: 0.5 };

const FIELD_SOURCE: Partial<Record<string, keyof SearchDocument>> = {
  idText: "idText",
  tagText: "tagText",
  description: "tool_search_description",
  type: "tool_type",
  manPage: "manPage",
};

/** Short terms ("csv", "pdf") must match exactly; longer ones also match as prefixes and with a typo or two. */
const MIN_EXPANDED_TERM_LENGTH = 4;
const FUZZINESS = 0.2;

/** An in-memory BM25 index of the latest entry of every tool (minisearch). */
export class ToolSearchIndex {
  private readonly index = new MiniSearch<SearchDocument>({
    fields: Object.keys(FIELD_BOOST),
    storeFields: ["tool_id", "version", "tool_search_description", "tool_tags", "tool_type"],
    // Also reads the id and the stored fields, which are not in FIELD_SOURCE.
    extractField: (document, field) => document[FIELD_SOURCE[field as IndexedField] ?? (field as keyof SearchDocument)],
    tokenize: (text, field) => tokenize(text, field === "idText"),
    processTerm: normaliseTerm,
    searchOptions: {
      boost: FIELD_BOOST,
      prefix: (term) => term.length >= MIN_EXPANDED_TERM_LENGTH,
      fuzzy: (term) => (term.length >= MIN_EXPANDED_TERM_LENGTH ? FUZZINESS : false),
    },
  });

  static build(entries: Iterable<SearchableEntry>): ToolSearchIndex {
    const built = new ToolSearchIndex();
    const documents = new Map<string, SearchDocument>();
    for (const entry of entries) documents.set(entry.tool_id, toSearchDocument(entry));
    built.index.addAll([...documents.values()]);
    return built;
  }

  get size(): number {
    return this.index.documentCount;
  }

  /** Adds the tool or replaces its previous entry. */
  upsert(entry: SearchableEntry): void {
    const document = toSearchDocument(entry);
    if (this.index.has(document.id)) this.index.replace(document);
    else this.index.add(document);
  }

  remove(toolId: string): void {
    if (this.index.has(toolId)) this.index.discard(toolId);
  }

  /** Best matches first; equal scores in tool id order so results are stable. */
  search(query: SearchQuery): SearchHit[] {
    const matches = this.index.search(query.q, {
      filter: (result) =>
        (query.type === undefined || result.tool_type === query.type) &&
        (query.tag === undefined || (result.tool_tags as string[]).includes(query.tag)),
    });
    return matches
      .sort((a, b) => b.score - a.score || compareIds(a.id as string, b.id as string))
      .slice(0, query.limit)
      .map(toHit);
  }
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

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
