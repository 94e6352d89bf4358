// The pieces of the original's LLM request, checked against the original's own rules (and,
// for the input JSON, against real python3's json.dumps).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { buildFunctionCatalog, sanitiseFunctionName } from "../../../sdk/src/search/function-definitions.js";
import { buildUserMessage, pythonJsonDumps } from "../../../sdk/src/search/user-message.js";

const pythonDumps = (value: unknown) =>
  execFileSync("python3", ["-c", "import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read()), indent=2))"], {
    input: JSON.stringify(value),
    encoding: "utf8",
  });

describe("function names", () => {
  it("replace every character outside [a-zA-Z0-9_-] with _ and cut to 64", () => {
    expect(sanitiseFunctionName("agentspace.commit-scribe.v4")).toBe("agentspace_commit-scribe_v4");
    expect(sanitiseFunctionName("a b/c@d:é🚀")).toBe("a_b_c_d___");
    expect(sanitiseFunctionName("x".repeat(80))).toBe("x".repeat(64));
  });

  it("get _2, _3 … on collisions, in candidate order, and map back to their tool ids", () => {
    const { definitions, toolIdByName } = buildFunctionCatalog([
      { tool_id: "a.b" },
      { tool_id: "a_b" },
      { tool_id: "a-b" },
      { tool_id: "a@b" },
      { tool_id: "a.b" },
    ]);
    expect(definitions.map((definition) => definition.function.name)).toEqual(["a_b", "a_b_2", "a-b", "a_b_3"]);
    expect(Object.fromEntries(toolIdByName)).toEqual({ a_b: "a.b", a_b_2: "a_b", "a-b": "a-b", a_b_3: "a@b" });
  });

  it("never grow past 64 characters with a suffix (OpenAI's limit)", () => {
    const base = "t".repeat(70);
    const { definitions } = buildFunctionCatalog([{ tool_id: `${base}.x` }, { tool_id: `${base}.y` }]);
    expect(definitions.map((definition) => definition.function.name)).toEqual(["t".repeat(64), `${"t".repeat(62)}_2`]);
  });
});

describe("function definitions", () => {
  it("are exactly {type, function: {name, description, parameters}}", () => {
    const input = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
    const { definitions } = buildFunctionCatalog([
      {
        tool_id: "text-stats",
        tool_search_description: "Counts words",
        tool_tags: ["text", "nlp"],
        tool_api_spec: { entrypoints: { execute: { input, output: { type: "object" } } } },
        tool_parameters: { top_n: 3 },
      },
    ]);
    expect(definitions).toEqual([
      { type: "function", function: { name: "text-stats", description: "Counts words Tags: text, nlp.", parameters: input } },
    ]);
  });

  it("add the Tags suffix only with tags, keep an empty description, default only a missing one", () => {
    const descriptions = buildFunctionCatalog([
      { tool_id: "a", tool_search_description: "Does A", tool_tags: [] },
      { tool_id: "b", tool_search_description: "", tool_tags: ["x"] },
      { tool_id: "c", tool_search_description: "" },
      { tool_id: "d" },
    ]).definitions.map((definition) => definition.function.description);
    expect(descriptions).toEqual(["Does A", " Tags: x.", "", "No description provided."]);
  });

  it("fall back to an empty object schema when the spec has no execute input", () => {
    const empty = { type: "object", properties: {} };
    const parameters = buildFunctionCatalog([
      { tool_id: "a" },
      { tool_id: "b", tool_api_spec: {} },
      { tool_id: "c", tool_api_spec: { entrypoints: { execute: {} } } },
      { tool_id: "d", tool_api_spec: { entrypoints: { execute_command: { commands: {} } } } },
    ]).definitions.map((definition) => definition.function.parameters);
    expect(parameters).toEqual([empty, empty, empty, empty]);
  });
});

describe("the user message", () => {
  it("is the prompt alone without input or with an empty one", () => {
    expect(buildUserMessage("count words")).toBe("count words");
    expect(buildUserMessage("count words", {})).toBe("count words");
  });

  it("appends the input as Python's json.dumps(indent=2) would", () => {
    const input = { text: "the cat", options: { top_n: 2, flags: [true, null, 1.5], empty: {}, none: [] } };
    expect(buildUserMessage("count", input)).toBe(`count\n\nInput data (JSON):\n${pythonDumps(input)}`);
  });

  it("escapes non-ASCII like Python's ensure_ascii, emoji as surrogate pairs", () => {
    const input = { clé: "naïve café ☕ 🚀 日本", control: "tab\there\nnew\u0001\u007f", quote: '"\\/' };
    expect(pythonJsonDumps(input)).toBe(pythonDumps(input));
    expect(pythonJsonDumps(input)).toContain("\\ud83d\\ude80");
  });
});
