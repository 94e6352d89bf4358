/**
 * The entry fields, besides the name, description, input schema and capabilities, that change
 * what a tool does when it runs (docs/registry.md#what-a-put-may-change): the SDK hands the whole
 * record to the tool's code (`tool_data`) and reads some of it itself. The SDK pins all of them
 * with the approved definition, so an edit asks again; `frozenOnPut` ones are refused by
 * `PUT /tools/{id}` outright (upload a new version instead). One list, read by both sides.
 */
export interface RuntimeField {
  field: "tool_parameters" | "tool_metadata" | "tool_settings" | "default_tool_usage_credentials" | "tool_custom_actions_dsl_map";
  frozenOnPut: boolean;
  reason: string;
}

export const RUNTIME_FIELDS: readonly RuntimeField[] = [
  {
    field: "tool_parameters",
    frozenOnPut: true,
    reason:
      "it is the tool's configuration: its code reads it (tool_data.tool_parameters), " +
      "so a change makes the published version do something else",
  },
  {
    field: "tool_metadata",
    frozenOnPut: true,
    reason:
      "the SDK reads it (read_only, version) and the tool's code receives it, so a change makes the published version behave otherwise",
  },
  { field: "tool_settings", frozenOnPut: false, reason: "the tool's code receives it in tool_data" },
  { field: "default_tool_usage_credentials", frozenOnPut: false, reason: "the tool's code reads its credentials from it" },
  { field: "tool_custom_actions_dsl_map", frozenOnPut: false, reason: "it maps named actions to the tool's calls" },
];
