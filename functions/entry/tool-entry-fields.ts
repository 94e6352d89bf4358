/**
 * The ToolEntry schema of the Python registry (docs/design/compatibility.md#entry): 19 fields, every one
 * optional with a default. Only these keys are stored from `spec.json`; others are dropped.
 */
export const TOOL_ENTRY_FIELDS = {
  tool_id: "string",
  tool_metadata: "object",
  tool_search_description: "string",
  tool_tags: "string-list",
  tool_type: "string",
  tool_man_page_doc: "string",
  tool_api_spec: "object",
  tool_custom_actions_dsl_map: "object",
  default_tool_usage_credentials: "object",
  tool_settings: "object",
  tool_parameters: "object",
  tool_execution_mode: "string",
  tool_policy_rule_uri: "string",
  tool_source_code_link: "string",
  tool_runtime_type: "string",
  tool_service_url: "string",
  tool_system_function_rpc_id: "string",
  tool_validation_policy_rule_uri: "string",
  tool_validation_mode: "string",
} as const satisfies Record<string, FieldKind>;

export type FieldKind = "string" | "object" | "string-list";
export type ToolEntryField = keyof typeof TOOL_ENTRY_FIELDS;

type ValueOf<K extends FieldKind> = K extends "string" ? string : K extends "object" ? Record<string, unknown> : string[];

/** A ToolEntry with every original field present (defaults: `""`, `{}`, `[]`). */
export type ToolEntry = { [F in ToolEntryField]: ValueOf<(typeof TOOL_ENTRY_FIELDS)[F]> };

export const TOOL_ENTRY_FIELD_NAMES = Object.keys(TOOL_ENTRY_FIELDS) as ToolEntryField[];

export function isToolEntryField(key: string): key is ToolEntryField {
  return Object.hasOwn(TOOL_ENTRY_FIELDS, key);
}

/** A fresh default per call, so no two entries share a mutable `{}` or `[]`. */
export function defaultFor(kind: FieldKind): string | Record<string, unknown> | string[] {
  return kind === "string" ? "" : kind === "object" ? {} : [];
}
