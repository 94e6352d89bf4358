import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import type { RegistryClient } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { inputSchemaOf } from "../registry-tool/registry-tool-record.js";
import { isSkillRecord } from "../skills/skill-runtime.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk } from "../tool/tool-chunk.js";

/** How many tools a search returns by default and at most: enough to choose from, few enough to read. */
export const DEFAULT_SEARCH_TOOLS_RESULTS = 5;
export const MAX_SEARCH_TOOLS_RESULTS = 5;
/** The registry's limit on a query. */
const MAX_QUERY_CHARS = 512;

/**
 * One entry found by `SearchTools`: what an agent needs to decide, and for a tool the schema it would
 * call with. A skill (`kind: "skill"`) is instructions, not a function: `AddTool` loads it and
 * returns them, so it has no input schema. `similar_tool_ids` names near-duplicates (the same
 * description), any of which AddTool can add instead.
 */
export type FoundTool = (
  | { tool_id: string; kind: "tool"; description: string; tags: string[]; input_schema: ToolInputSchema }
  | { tool_id: string; kind: "skill"; description: string; tags: string[] }
) & { similar_tool_ids?: string[] };

/**
 * `SearchTools`: the registry's ranked search as a tool, so an agent starts with two tools
 * (this one and `AddTool`) instead of the whole catalogue, and loads what a task needs. Read-only
 * and always allowed: it only reads the public catalogue. Returns the best few tools with their
 * input schemas; a query that asks for several things ("validate these emails, then fetch the
 * order") gets a tool for each among them, and a tool with clones comes once, naming them.
 */
export class SearchToolsTool extends ToolBase<{ query: string; limit?: number }> {
  readonly name = "SearchTools";
  override readonly origin = BUILTIN_ORIGIN;
  readonly description =
    "Search the tool registry for tools and skills that can do a task. Describe the task in a few words (several tasks " +
    'in one query each get a tool, e.g. "validate email addresses, then fetch an order"); the result lists the ' +
    "best matches with their ids, descriptions and, for tools, input schemas. Call AddTool with a tool_id: a tool (kind " +
    '"tool") becomes callable, then call it; a skill (kind "skill") is loaded and AddTool returns its instructions.';
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
    const found = records.flatMap((record, i) => (record === undefined ? [] : [foundTool(record, hits[i]!.similar_tool_ids)]));
    const text =
      found.length === 0
        ? `No registry tool matches "${input.query}". Try other words: what the tool does, or the kind of input it takes.`
        : JSON.stringify({
            tools: found,
            next: "Call AddTool with the tool_id to use: a tool becomes callable, a skill's instructions are returned.",
          });
    return ToolChunk.text(text, { metadata: { toolIds: found.map((tool) => tool.tool_id) } });
  }
}

function foundTool(record: ToolRecord, similar: string[] | undefined): FoundTool {
  const about = {
    tool_id: record.tool_id,
    description: String(record.tool_search_description ?? ""),
    tags: (record.tool_tags ?? []).map(String),
    ...(similar === undefined ? {} : { similar_tool_ids: similar }),
  };
  return isSkillRecord(record) ? { ...about, kind: "skill" } : { ...about, kind: "tool", input_schema: inputSchemaOf(record) };
}
