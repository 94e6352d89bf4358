import { describe, expect, it } from "vitest";
import { entryFromSpec, TOOL_ENTRY_FIELD_NAMES, UPDATABLE_FIELDS, validateEntryUpdate } from "../../../functions/entry/tool-entry.js";
import { HttpProblem } from "../../../functions/http-problem.js";

function rejection(run: () => unknown): HttpProblem {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpProblem);
    return error as HttpProblem;
  }
  throw new Error("nothing was thrown");
}

describe("entryFromSpec", () => {
  it("fills every original field with its default and drops unknown keys", () => {
    const entry = entryFromSpec({ tool_id: "t", extra: true });
    expect(Object.keys(entry).sort()).toEqual([...TOOL_ENTRY_FIELD_NAMES].sort());
    expect(entry).toEqual({
      tool_id: "t",
      tool_metadata: {},
      tool_search_description: "",
      tool_tags: [],
      tool_type: "",
      tool_man_page_doc: "",
      tool_api_spec: {},
      tool_custom_actions_dsl_map: {},
      default_tool_usage_credentials: {},
      tool_settings: {},
      tool_parameters: {},
      tool_execution_mode: "",
      tool_policy_rule_uri: "",
      tool_source_code_link: "",
      tool_runtime_type: "",
      tool_service_url: "",
      tool_system_function_rpc_id: "",
      tool_validation_policy_rule_uri: "",
      tool_validation_mode: "",
    });
  });

  it("gives every entry its own default objects", () => {
    const first = entryFromSpec({});
    first.tool_tags.push("x");
    expect(entryFromSpec({}).tool_tags).toEqual([]);
  });

  it("refuses wrong types with a 422 naming each field", () => {
    const error = rejection(() => entryFromSpec({ tool_metadata: "x", tool_tags: [true], tool_runtime_type: ["python"] }));
    expect(error.status).toBe(422);
    expect(error.detail).toBe(
      "spec.json has fields of the wrong type: tool_metadata must be a JSON object " +
        '({...}), but it is the string "x"; tool_tags must be a list of strings, but item ' +
        "0 is the boolean true; tool_runtime_type must be a string, but it is a list.",
    );
  });
});

describe("validateEntryUpdate (PUT /tools/{id})", () => {
  it("accepts descriptive fields and the settings the SDK pins itself", () => {
    const body = { tool_search_description: "new", tool_tags: ["a"], tool_settings: { mode: "fast" } };
    expect(validateEntryUpdate(body)).toEqual(body);
    expect(UPDATABLE_FIELDS).not.toContain("tool_api_spec");
    expect(UPDATABLE_FIELDS).not.toContain("tool_parameters");
    expect(UPDATABLE_FIELDS).not.toContain("tool_metadata");
    expect(UPDATABLE_FIELDS).toContain("tool_man_page_doc");
  });

  it("refuses identity, code, runtime, schema and registry-owned fields, saying why", () => {
    const error = rejection(() =>
      validateEntryUpdate({
        tool_id: "other",
        tool_runtime_type: "binary",
        tool_api_spec: {},
        tool_source_code_link: "http://x",
        tool_archive_sha256: "00",
      }),
    );
    expect(error.status).toBe(422);
    expect(error.error).toBe("Invalid update payload");
    expect(error.detail).toMatch(/tool_id cannot change: it is the tool's identity/);
    expect(error.detail).toMatch(/tool_runtime_type cannot change: the archive was checked for this runtime/);
    expect(error.detail).toMatch(/tool_api_spec cannot change: agents rely on a published version's schema; upload a new version/);
    expect(error.detail).toMatch(/tool_source_code_link cannot change: the registry derives it/);
    expect(error.detail).toMatch(/tool_archive_sha256 cannot change/);
  });

  it("lets unchanged frozen fields through when the current entry is given (GET → edit → PUT)", () => {
    const current = { tool_id: "t", version: "1.0.0", tool_api_spec: { entrypoints: { execute: { input: { type: "object" } } } } };
    const body = { ...current, tool_api_spec: { entrypoints: { execute: { input: { type: "object" } } } }, tool_type: "new" };
    expect(validateEntryUpdate(body, current)).toEqual({ tool_type: "new" });
    expect(rejection(() => validateEntryUpdate({ ...body, tool_id: "u" }, current)).detail).toMatch(/tool_id cannot change/);
  });

  it("refuses a change of what the tool runs with (tool_parameters, tool_metadata), and lets the same values through", () => {
    const current = { tool_id: "t", version: "1.0.0", tool_parameters: { top_n: 3 }, tool_metadata: { version: "1.0.0", author: "a" } };
    expect(
      validateEntryUpdate({ tool_parameters: { top_n: 3 }, tool_metadata: { version: "1.0.0", author: "a" }, tool_type: "x" }, current),
    ).toEqual({
      tool_type: "x",
    });
    const error = rejection(() => validateEntryUpdate({ tool_parameters: { top_n: 50 }, tool_metadata: { version: "2.0.0" } }, current));
    expect(error.status).toBe(422);
    expect(error.detail).toMatch(
      /tool_parameters cannot change: it is the tool's configuration: its code reads it .*upload a new version instead/,
    );
    expect(error.detail).toMatch(/tool_metadata cannot change: the SDK reads it \(read_only, version\)/);
    expect(validateEntryUpdate({ tool_settings: { mode: "fast" } }, current)).toEqual({ tool_settings: { mode: "fast" } });
  });

  it("refuses unknown fields and wrong types", () => {
    const error = rejection(() => validateEntryUpdate({ colour: "red", tool_tags: "a" }));
    expect(error.detail).toMatch(/colour is not a ToolEntry field \(updatable: tool_search_description, /);
    expect(error.detail).toMatch(/tool_tags must be a list of strings/);
  });

  it("refuses a body that is not an object (400)", () => {
    expect(rejection(() => validateEntryUpdate([1])).status).toBe(400);
    expect(rejection(() => validateEntryUpdate("x")).detail).toMatch(/must be a JSON object .*got string/);
  });
});
