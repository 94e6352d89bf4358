import type { ToolRecord } from "../registry-client/tool-record.js";
import type { ToolInputSchema } from "../tool/tool-base.js";

/** The search description, then the tags, so the LLM sees what search matched on. */
export function describeRecord(record: ToolRecord): string {
  const description = record.tool_search_description?.trim() || `Registry tool ${record.tool_id}.`;
  const tags = (record.tool_tags ?? []).filter((tag) => typeof tag === "string" && tag.length > 0);
  return tags.length > 0 ? `${description}\nTags: ${tags.join(", ")}` : description;
}

/** `tool_api_spec.entrypoints.execute.input` when it describes an object; otherwise an open object. */
export function inputSchemaOf(record: ToolRecord): ToolInputSchema {
  const input = path(record.tool_api_spec, ["entrypoints", "execute", "input"]);
  if (isObject(input) && input["type"] === "object") return { properties: {}, ...input, type: "object" };
  return { type: "object", properties: {} };
}

/** `tool_api_spec.entrypoints.execute.output` when it describes an object (MCP's `outputSchema` must); otherwise none. */
export function outputSchemaOf(record: ToolRecord): ToolInputSchema | undefined {
  const output = path(record.tool_api_spec, ["entrypoints", "execute", "output"]);
  return isObject(output) && output["type"] === "object" ? { properties: {}, ...output, type: "object" } : undefined;
}

/**
 * Whether the registry entry says the tool only reads: `tool_metadata.read_only: true` or an MCP-style
 * `tool_api_spec.annotations.readOnlyHint: true`. Authors write this themselves, so it is a claim.
 */
export function registryClaimsReadOnly(record: ToolRecord): boolean {
  return path(record.tool_metadata, ["read_only"]) === true || path(record.tool_api_spec, ["annotations", "readOnlyHint"]) === true;
}

function path(value: unknown, keys: string[]): unknown {
  let current = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  return current;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
