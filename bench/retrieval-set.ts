/**
 * A public tool-retrieval set rebuilt from a checkout of its repository: tools as the registry
 * would index them, and queries each naming the tools that answer it (one, or several when a
 * request spans several tools). Nothing of a set is stored in this repository: each set's module
 * reads a local checkout (a work tree, or a bare clone through `git show`: checkout-file.ts).
 */
import type { SearchableEntry } from "../functions/search/search-document.js";
import { MAX_QUERY_CHARS } from "../functions/search/search-query.js";

export interface RetrievalQuery {
  q: string;
  /** The tools that answer it (ids of `tools`), at least one. */
  expected: string[];
  /** Whether the ranking's constants were chosen looking at this query (docs/search.md#relevance); the rest is held out. */
  tuned: boolean;
}

export interface RetrievalSet {
  name: string;
  /** Where it comes from: repository, files and licence. */
  source: string;
  tools: SearchableEntry[];
  queries: RetrievalQuery[];
}

/** A request as the registry takes it: trimmed, at most `MAX_QUERY_CHARS` characters. */
export function asQuery(text: string): string {
  return [...text.trim()].slice(0, MAX_QUERY_CHARS).join("");
}

/** The records of a JSON Lines text. */
export function jsonLines(text: string): unknown[] {
  return text.split("\n").flatMap((line) => (line.trim() === "" ? [] : [JSON.parse(line) as unknown]));
}

/** A tool entry with the fields a set fills, the rest as the registry would default them. */
export function retrievalTool(fields: {
  id: string;
  name?: string;
  description: string;
  tags?: string[];
  type?: string;
  manPage?: string;
  /** Input property names, each with its description when the set has one. */
  properties?: Record<string, string | undefined>;
}): SearchableEntry {
  const properties = Object.fromEntries(
    Object.entries(fields.properties ?? {}).map(([name, description]) => [
      name,
      description === undefined ? { type: "string" } : { type: "string", description },
    ]),
  );
  return {
    tool_id: fields.id,
    version: "1.0.0",
    tool_search_description: fields.description,
    ...(fields.name === undefined ? {} : { tool_metadata: { name: fields.name } }),
    tool_tags: fields.tags ?? [],
    tool_type: fields.type ?? "",
    tool_man_page_doc: fields.manPage ?? "",
    tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties } } } },
  };
}
