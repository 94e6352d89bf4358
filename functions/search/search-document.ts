import { terms } from "./search-terms.js";

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

/** The indexed fields, in the order of the full-text table's columns. */
export const SHORT_FIELDS = ["name", "tags", "description", "type", "params"] as const;
export type ShortField = (typeof SHORT_FIELDS)[number];

/** One indexed tool: normalised terms per field (space-separated), its summary, and its quality. */
export interface SearchDocument {
  summary: ToolSummary;
  fields: Record<ShortField, string>;
  manPage: string;
  /** 0..1: how concise and complete the tool's description is (the tie-break between equal scores). */
  quality: number;
}

/** A man page is indexed up to this length: enough to describe a tool, bounded so snapshots stay small. */
const MAX_INDEXED_MAN_PAGE_CHARS = 20_000;
/** Input-schema text indexed per tool (property names and descriptions). */
const MAX_INDEXED_PARAMS_CHARS = 4_000;

export function toSearchDocument(entry: SearchableEntry): SearchDocument {
  const tags = Array.isArray(entry.tool_tags) ? entry.tool_tags.filter((tag): tag is string => typeof tag === "string") : [];
  const description = text(entry.tool_search_description);
  const metadataName = text((entry.tool_metadata as { name?: unknown } | undefined)?.name);
  const params = inputSchemaText(entry.tool_api_spec).slice(0, MAX_INDEXED_PARAMS_CHARS);
  return {
    summary: {
      tool_id: entry.tool_id,
      version: text(entry.version) || "0.0.0",
      tool_search_description: description,
      tool_tags: tags,
      tool_type: text(entry.tool_type),
    },
    fields: {
      name: joined(`${entry.tool_id} ${metadataName}`),
      tags: joined(tags.join(" ")),
      description: joined(description),
      type: joined(text(entry.tool_type)),
      params: joined(params),
    },
    manPage: joined(text(entry.tool_man_page_doc).slice(0, MAX_INDEXED_MAN_PAGE_CHARS)),
    quality: quality(description, tags.length, params),
  };
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

function joined(value: string): string {
  return terms(value).join(" ");
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}
