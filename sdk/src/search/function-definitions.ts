import type { ToolRecord } from "../registry-client/tool-record.js";

/** One entry of the request's `tools` array, exactly as the Python SDK built it (docs/design/compatibility.md#search-request). */
export interface FunctionDefinition {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface FunctionCatalog {
  definitions: FunctionDefinition[];
  /** Function name → tool id, to map the model's choice back. */
  toolIdByName: Map<string, string>;
}

const MAX_NAME_LENGTH = 64;
const EMPTY_PARAMETERS = { type: "object", properties: {} };

/**
 * The function definitions for a set of candidate tools (`openai_tool_caller.py`): the name is the
 * sanitised tool id, made unique with `_2`, `_3`…; the description is `tool_search_description`
 * plus " Tags: a, b." when there are tags; the parameters are `tool_api_spec.entrypoints.execute.input`.
 * A tool id offered twice is offered once.
 */
export function buildFunctionCatalog(records: readonly ToolRecord[]): FunctionCatalog {
  const toolIdByName = new Map<string, string>();
  const definitions: FunctionDefinition[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    if (seen.has(record.tool_id)) continue;
    seen.add(record.tool_id);
    const name = uniqueName(sanitiseFunctionName(record.tool_id), toolIdByName);
    toolIdByName.set(name, record.tool_id);
    definitions.push({
      type: "function",
      function: { name, description: describe(record), parameters: executeInputSchema(record) },
    });
  }
  return { definitions, toolIdByName };
}

/** `re.sub(r"[^a-zA-Z0-9_-]", "_", tool_id)[:64]` (one `_` per code point, as Python). */
export function sanitiseFunctionName(toolId: string): string {
  return toolId.replace(/[^a-zA-Z0-9_-]/gu, "_").slice(0, MAX_NAME_LENGTH);
}

/**
 * `name`, or `name_2`, `name_3`… when taken. Unlike the Python SDK, a suffix never pushes the name
 * past 64 characters (OpenAI rejects longer names): the base is shortened to make room.
 */
function uniqueName(name: string, taken: ReadonlyMap<string, string>): string {
  let candidate = name;
  for (let counter = 2; taken.has(candidate); counter++) {
    const suffix = `_${counter}`;
    candidate = name.slice(0, MAX_NAME_LENGTH - suffix.length) + suffix;
  }
  return candidate;
}

function describe(record: ToolRecord): string {
  // The Python SDK's default applies only when the field is missing; the registry always sends it.
  const description = typeof record.tool_search_description === "string" ? record.tool_search_description : "No description provided.";
  const tags = Array.isArray(record.tool_tags) ? record.tool_tags : [];
  return tags.length > 0 ? `${description} Tags: ${tags.join(", ")}.` : description;
}

function executeInputSchema(record: ToolRecord): Record<string, unknown> {
  const input = objectAt(objectAt(objectAt(record.tool_api_spec, "entrypoints"), "execute"), "input");
  return input ?? EMPTY_PARAMETERS;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const child = (value as Record<string, unknown>)[key];
  return typeof child === "object" && child !== null && !Array.isArray(child) ? (child as Record<string, unknown>) : undefined;
}
