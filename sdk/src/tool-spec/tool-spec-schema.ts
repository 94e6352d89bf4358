import { TOOL_PLATFORMS_SCHEMA } from "./tool-platforms.js";

/**
 * The JSON Schema of `spec.json`, the one file that describes a tool. The registry validates every
 * uploaded spec with it (after dropping keys whose value is `null`, which mean "use the default")
 * and serves it at `GET /schemas/spec.json`; docs/authoring.md's field reference is generated from
 * it; editors can point `$schema` at it. Keys not listed are accepted and dropped, as the Python
 * registry did.
 */
export const TOOL_ID_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$";

/** Ids that name registry routes (`/tools/upload`, `/tools/search`, …), so no tool may take them. */
export const RESERVED_TOOL_IDS = ["upload", "uploads", "search", "query"] as const;

const text = (description: string, extra: Record<string, unknown> = {}) => ({ type: "string", description, ...extra });
const object = (description: string, extra: Record<string, unknown> = {}) => ({ type: "object", description, ...extra });

export const TOOL_SPEC_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  $id: "agent-tools:spec.json",
  title: "Agent Tools spec.json",
  description: "Describes one tool: its id and version, how it runs, what search and LLMs see, and its input.",
  type: "object",
  required: ["tool_id"],
  properties: {
    tool_id: text(
      'Unique id; a URL segment and a storage key. 1-128 letters, digits, ".", "_" or "-", ' +
        'starting with a letter or digit, without ".."; not upload, uploads, search or query.',
      {
        pattern: TOOL_ID_PATTERN,
        // The reserved ids are refused by the publish step itself, with a message naming the routes.
        not: { pattern: "\\.\\." },
        examples: ["text-stats", "acme.text-stats.v2"],
      },
    ),
    tool_metadata: object("Free-form facts about the tool. `version` is the one the registry reads.", {
      properties: {
        version: text(
          'Semantic version (MAJOR.MINOR.PATCH, e.g. "1.0.0"). A (tool_id, version) is published once; ' +
            "the highest version is the latest. Without it the tool publishes as 0.0.0, with a warning.",
          { examples: ["1.0.0", "2.1.0-beta.1"] },
        ),
        // Free-form like the rest of tool_metadata: described, not typed.
        author: { description: "Who maintains the tool." },
        license: { description: "The license, e.g. MIT." },
      },
    }),
    tool_runtime_type: text(
      '"python" (or empty) runs code/function.py\'s AgentSpaceV1Tool; any other value ("binary") runs the one executable in code/.',
      { examples: ["python", "binary"] },
    ),
    tool_type: text("Category, matched exactly by `?type=` filters.", { examples: ["text-processing", "utility"] }),
    tool_search_description: text("One or two sentences on what the tool does: ranked search and LLM tool selection read it first."),
    tool_tags: {
      type: "array",
      items: { type: "string" },
      description: "Keywords, matched exactly by `?tag=` filters and weighted in search.",
      examples: [["text", "nlp"]],
    },
    tool_parameters: object(
      "Configuration the tool receives in tool_data.tool_parameters; `add(id, overrides)` merges overrides into it shallowly.",
    ),
    tool_api_spec: object(
      "How to call the tool. `entrypoints.execute.input` is the JSON Schema of execute's " +
        "input (an object); LLM tool selection sends it as the function's parameters.",
      {
        properties: {
          entrypoints: {
            type: "object",
            properties: {
              execute: {
                type: "object",
                properties: {
                  description: { type: "string" },
                  input: {
                    type: "object",
                    description: "JSON Schema (draft-07 unless $schema names 2019-09 or 2020-12) describing an object.",
                  },
                  output: { type: "object", description: "JSON Schema of the result (documentation only)." },
                },
              },
              execute_command: {
                type: "object",
                description: "Management commands: `commands.<name>.{input,output}` JSON Schemas (documentation only).",
              },
            },
          },
        },
      },
    ),
    tool_man_page_doc: text("Replaced by tool.md at upload."),
    tool_source_code_link: text("Replaced by the registry with the archive's URL."),
    tool_settings: object("Stored and returned as given."),
    default_tool_usage_credentials: object(
      'Credentials the tool reads from tool_data, e.g. {"openai_api_key": ""}; stored as given, so publish no secrets.',
    ),
    tool_custom_actions_dsl_map: object("Named actions mapped to execute or execute_command calls; stored as given."),
    tool_execution_mode: text("Matched exactly by `GET /tools/query/by-execution-mode`.", { examples: ["local_code"] }),
    tool_policy_rule_uri: text("Matched exactly by `GET /tools/query/by-policy-uri`."),
    tool_service_url: text("Stored and returned as given."),
    tool_system_function_rpc_id: text("Stored and returned as given."),
    tool_validation_policy_rule_uri: text("Stored and returned as given."),
    tool_validation_mode: text("Stored and returned as given.", { examples: ["none"] }),
    tool_platforms: TOOL_PLATFORMS_SCHEMA,
  },
} as const;

/** Said by `agent-tools pack` and by the registry's upload answer when spec.json names no version. */
export const MISSING_VERSION_WARNING =
  "spec.json has no tool_metadata.version, so the tool is published as 0.0.0; " +
  'set tool_metadata.version (e.g. "1.0.0") and raise it with every change.';
