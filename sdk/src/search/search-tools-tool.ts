import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import type { RegistryClient } from "../registry-client/registry-client.js";
import { inputSchemaOf } from "../registry-tool/registry-tool-record.js";
import { ToolBase, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk } from "../tool/tool-chunk.js";

/** How many tools a search returns by default and at most: enough to choose from, few enough to read. */
export const DEFAULT_SEARCH_TOOLS_RESULTS = 5;
export const MAX_SEARCH_TOOLS_RESULTS = 5;
/** The registry's limit on a query. */
const MAX_QUERY_CHARS = 512;

/** One tool found by `SearchTools`: what an agent needs to decide, and the schema it would call with. */
export interface FoundTool {
  tool_id: string;
  description: string;
  tags: string[];
  input_schema: ToolInputSchema;
  /** Other tools with the same description (near-duplicates), any of which AddTool can add instead. */
  similar_tool_ids?: string[];
}

/**
 * `SearchTools`: the registry's ranked search as a tool, so an agent starts with two tools
 * (this one and `AddTool`) instead of the whole catalogue, and loads what a task needs. Read-only
 * and always allowed: it only reads the public catalogue. Returns the best few tools with their
 * input schemas; a query that asks for several things ("validate these emails, then fetch the
 * order") gets a tool for each among them, and a tool with clones comes once, naming them.
 */
export class SearchToolsTool extends ToolBase<{ query: string; limit?: number }> {
  readonly name = "SearchTools";
  readonly description =
    "Search the tool registry for tools that can do a task. Describe the task in a few words (several tasks in one query each get a tool, e.g. 'validate email addresses, then fetch an order'); the result lists the best matching tools with their ids, descriptions and input schemas. Call AddTool with a tool_id to make that tool callable, then call it.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      query: {
        type: "string",
        minLength: 1,
        maxLength: MAX_QUERY_CHARS,
        description: "What the tool should do, e.g. 'count words in a text'.",
      },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MAX_SEARCH_TOOLS_RESULTS,
        description: `How many tools to return (default ${DEFAULT_SEARCH_TOOLS_RESULTS}).`,
      },
    },
    required: ["query"],
    additionalProperties: false,
  };
  override isReadOnly = true;
  override isConcurrencySafe = true;

  constructor(private readonly registry: RegistryClient) {
    super();
  }

  checkPermissions(): PermissionDecision {
    return { behavior: PermissionBehavior.ALLOW, message: "Searching the public tool catalogue is always allowed." };
  }

  override async call(input: { query: string; limit?: number }): Promise<ToolChunk> {
    const hits = await this.registry.searchTools({ q: input.query.trim(), limit: input.limit ?? DEFAULT_SEARCH_TOOLS_RESULTS });
    // The schemas are in the full entries only; a tool deleted since the search is left out.
    const records = await Promise.all(hits.map((hit) => this.registry.getTool(hit.tool_id).catch(() => undefined)));
    const found: FoundTool[] = records.flatMap((record, i) =>
      record === undefined
        ? []
        : [
            {
              tool_id: record.tool_id,
              description: String(record.tool_search_description ?? ""),
              tags: (record.tool_tags ?? []).map(String),
              input_schema: inputSchemaOf(record),
              ...(hits[i]!.similar_tool_ids === undefined ? {} : { similar_tool_ids: hits[i]!.similar_tool_ids }),
            },
          ],
    );
    const text =
      found.length === 0
        ? `No registry tool matches "${input.query}". Try other words: what the tool does, or the kind of input it takes.`
        : JSON.stringify({ tools: found, next: "Call AddTool with the tool_id of the tool to use." });
    return ToolChunk.text(text, { metadata: { toolIds: found.map((tool) => tool.tool_id) } });
  }
}
