import { distinctTerms } from "./search-terms.js";

/** The fields of a ToolEntry that search reads; entries come from storage, so types are checked here. */
export interface SearchableEntry {
  tool_id: string;
  version?: unknown;
  tool_search_description?: unknown;
  tool_tags?: unknown;
  tool_type?: unknown;
  tool_man_page_doc?: unknown;
  published_at?: unknown;
  updated_at?: unknown;
}

/** What one search result carries (stored in the index so a search never touches storage). */
export interface ToolSummary {
  tool_id: string;
  version: string;
  tool_search_description: string;
  tool_tags: string[];
  tool_type: string;
}

/** One indexed tool: searchable text per field plus the summary returned with a hit. */
export interface SearchDocument extends ToolSummary {
  tagText: string;
  /** The man page's distinct indexed terms, space-separated (already normalised). */
  manPage: string;
}

/** A man page is indexed up to this length: enough to describe a tool, bounded so rebuilds stay cheap. */
const MAX_INDEXED_MAN_PAGE_CHARS = 20_000;

export function toSearchDocument(entry: SearchableEntry): SearchDocument {
  const tags = Array.isArray(entry.tool_tags) ? entry.tool_tags.filter((tag): tag is string => typeof tag === "string") : [];
  return {
    tool_id: entry.tool_id,
    version: text(entry.version) || "0.0.0",
    tool_search_description: text(entry.tool_search_description),
    tool_tags: tags,
    tool_type: text(entry.tool_type),
    tagText: tags.join(" "),
    // A man page counts by which words it uses, not how often: cheaper to index, and a long page
    // repeating a word says little more about the tool.
    manPage: distinctTerms(text(entry.tool_man_page_doc).slice(0, MAX_INDEXED_MAN_PAGE_CHARS)).join(" "),
  };
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}
