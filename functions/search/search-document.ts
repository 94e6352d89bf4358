import { FIELD_INDEXING, MAN_PAGE_WEIGHT, type IndexKeyClass, type ShortField } from "./query-likelihood.js";
import { termForms, tokenize, type TermForms } from "./search-terms.js";

/** The fields of a ToolEntry that search reads; entries come from storage, so types are checked here. */
export interface SearchableEntry {
  tool_id: string;
  version?: unknown;
  tool_search_description?: unknown;
  tool_tags?: unknown;
  tool_type?: unknown;
  tool_man_page_doc?: unknown;
  tool_metadata?: unknown;
  tool_api_spec?: unknown;
  /** The tool's vector for hybrid search (`tool-embedding.ts`), when the registry embeds tools. */
  tool_search_embedding?: unknown;
}

/** What one search result carries (stored in the index so a search never touches storage). */
export interface ToolSummary {
  tool_id: string;
  version: string;
  tool_search_description: string;
  tool_tags: string[];
  tool_type: string;
}

/**
 * One indexed tool: its summary; its index keys (a class letter and a term: `n:pass` is the
 * light form of a name word, `s:pass` the stemmed form of a short field's word, `m:pass` of a man
 * page's, `y:media` its type, `t:image` a tag) with the term's weighted count there in half-units
 * (query-likelihood.ts weighs fields in halves), short fields and man page apart; and what
 * ranking needs besides.
 */
export interface SearchDocument {
  summary: ToolSummary;
  shortKeys: Map<string, number>;
  manKeys: Map<string, number>;
  /** Its terms, each counted at its field's weight (the length of its language model). */
  length: number;
  /** 0..1: how concise and complete the tool's description is (the tie-break between equal scores). */
  quality: number;
  /**
   * Equal for tools whose descriptions use the same words (near-duplicates, shown as one result); 0 for a
   * description too short to tell.
   */
  duplicateGroup: number;
}

/**
 * Keys made before, by class and term: indexing makes the same keys over and over, and a string
 * made once is hashed once (terms themselves are memoised: search-terms.ts).
 */
const madeKeys: Record<IndexKeyClass, Map<string, string>> = { n: new Map(), s: new Map(), m: new Map(), y: new Map(), t: new Map() };
const MAX_MADE_KEYS = 100_000;

/** Index keys: a class and a term. */
export function indexKey(keyClass: IndexKeyClass, term: string): string {
  const made = madeKeys[keyClass];
  let key = made.get(term);
  if (key === undefined) {
    if (made.size >= MAX_MADE_KEYS) made.clear();
    key = `${keyClass}:${term}`;
    made.set(term, key);
  }
  return key;
}

/** Descriptions of fewer distinct terms than this are too short to call two tools duplicates ("Gets data"). */
const MIN_DUPLICATE_TERMS = 4;

/** A man page is indexed up to this length: enough to describe a tool, bounded so snapshots stay small. */
const MAX_INDEXED_MAN_PAGE_CHARS = 20_000;
/** Input-schema text indexed per tool (property names and descriptions). */
const MAX_INDEXED_PARAMS_CHARS = 4_000;

export function toSearchDocument(entry: SearchableEntry): SearchDocument {
  const tags = Array.isArray(entry.tool_tags) ? entry.tool_tags.filter((tag): tag is string => typeof tag === "string") : [];
  const description = text(entry.tool_search_description);
  const metadataName = text((entry.tool_metadata as { name?: unknown } | undefined)?.name);
  const params = inputSchemaText(entry.tool_api_spec).slice(0, MAX_INDEXED_PARAMS_CHARS);
  const fields: Record<ShortField, string> = {
    name: `${entry.tool_id} ${metadataName}`,
    tags: tags.join(" "),
    description,
    type: text(entry.tool_type),
    params,
  };
  const words = new Map<ShortField, Map<TermForms, number>>();
  const wordsOf = (field: ShortField) => {
    let found = words.get(field);
    if (found === undefined) words.set(field, (found = occurrences(fields[field])));
    return found;
  };
  const shortKeys = new Map<string, number>();
  for (const { field, form, keyClass, weight } of FIELD_INDEXING) {
    wordsOf(field).forEach((count, forms) => {
      addUnits(shortKeys, indexKey(keyClass, forms[form]), count * weight);
    });
  }
  // What `type` and `tag` filter on: the exact values, with no weight (they rank nothing).
  shortKeys.set(indexKey("y", fields.type), 0);
  for (const tag of tags) shortKeys.set(indexKey("t", tag), 0);
  const manKeys = new Map<string, number>();
  occurrences(text(entry.tool_man_page_doc).slice(0, MAX_INDEXED_MAN_PAGE_CHARS)).forEach((count, forms) => {
    addUnits(manKeys, indexKey("m", forms.stemmed), count * MAN_PAGE_WEIGHT);
  });
  let halfUnits = 0;
  for (const units of shortKeys.values()) halfUnits += units;
  for (const units of manKeys.values()) halfUnits += units;
  return {
    summary: {
      tool_id: entry.tool_id,
      version: text(entry.version) || "0.0.0",
      tool_search_description: description,
      tool_tags: tags,
      tool_type: text(entry.tool_type),
    },
    shortKeys,
    manKeys,
    length: halfUnits / 2,
    quality: quality(description, tags.length, params),
    duplicateGroup: duplicateGroup([...wordsOf("description").keys()].map((forms) => forms.stemmed)),
  };
}

/**
 * How often each indexed word of a text occurs, in the order of first occurrence (so keys, and the
 * term ids a build gives them, come in the text's order): words are memoised objects, so counting
 * them first makes one index key per distinct word instead of one per occurrence.
 */
function occurrences(text: string): Map<TermForms, number> {
  const counts = new Map<TermForms, number>();
  for (const word of tokenize(text)) {
    const forms = termForms(word);
    if (forms !== null) counts.set(forms, (counts.get(forms) ?? 0) + 1);
  }
  return counts;
}

function addUnits(keys: Map<string, number>, key: string, weight: number): void {
  keys.set(key, (keys.get(key) ?? 0) + 2 * weight);
}

/** A hash of the description's distinct terms (FNV-1a, 32 bits), or 0 when they are too few. */
function duplicateGroup(descriptionTerms: string[]): number {
  const distinct = [...new Set(descriptionTerms)].sort();
  if (distinct.length < MIN_DUPLICATE_TERMS) return 0;
  const joined = distinct.join(" ");
  let hash = 0x811c9dc5;
  for (let at = 0; at < joined.length; at++) {
    const code = joined.codePointAt(at)!;
    if (code > 0xffff) at++; // a code point of two UTF-16 units hashes once, as a whole
    hash = Math.imul(hash ^ code, 0x01000193);
  }
  return hash >>> 0 || 1;
}

/**
 * Concise and well described ranks first among equals: a description of one short sentence or
 * two, tags, and described input properties. A missing or sprawling description scores lower.
 */
function quality(description: string, tagCount: number, params: string): number {
  const words = description.split(/\s+/).filter((word) => word !== "").length;
  const described = words === 0 ? 0 : words < 4 ? 0.5 : words <= 40 ? 1 : Math.max(0.3, 40 / words);
  return 0.6 * described + 0.2 * (tagCount > 0 ? 1 : 0) + 0.2 * (params === "" ? 0 : 1);
}

/** Property names and descriptions of every entrypoint's input schema (`tool_api_spec`). */
export function inputSchemaText(apiSpec: unknown): string {
  const parts: string[] = [];
  const entrypoints = (apiSpec as { entrypoints?: unknown } | undefined)?.entrypoints;
  if (entrypoints === null || typeof entrypoints !== "object") return "";
  for (const entrypoint of Object.values(entrypoints as Record<string, unknown>)) {
    collectProperties((entrypoint as { input?: unknown } | null)?.input, parts, 0);
  }
  return parts.join(" ");
}

function collectProperties(schema: unknown, parts: string[], depth: number): void {
  if (depth > 2 || schema === null || typeof schema !== "object") return;
  const { properties, description } = schema as { properties?: unknown; description?: unknown };
  if (typeof description === "string") parts.push(description);
  if (properties === null || typeof properties !== "object") return;
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
    parts.push(name);
    collectProperties(property, parts, depth + 1);
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}
