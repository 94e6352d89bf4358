/**
 * spec.json's rules as the registry, `pack` and `publish` apply them (`specProblems`): each rule
 * on its own, then every problem of one spec at once, with its path, and the schema's generic
 * message left out where a specific one spoke.
 */
import { describe, expect, it } from "vitest";
import { describeSpecProblems, specProblems } from "@agent-tools/sdk/tool-spec";
import { readFixtureSpec } from "../../support/bundles.js";

const binarySpec = () => readFixtureSpec("binary-increment");
const pythonSpec = () => readFixtureSpec("text-stats");

/** [what is wrong, the spec, the path reported, what its message says]: one rule per row. */
const RULES: [string, Record<string, unknown>, string, RegExp][] = [
  ["no tool_id", { tool_id: undefined }, "tool_id", /spec\.json has no tool_id\. Add one/],
  ["tool_id with a slash", { tool_id: "acme/x" }, "tool_id", /contains "\/", which would split the URL/],
  ["tool_id of a route", { tool_id: "Search" }, "tool_id", /reserved by the registry's routes \(upload, uploads, search, query\)/],
  ["tags not strings", { tool_tags: ["ok", 3] }, "tool_tags", /tool_tags must be a list of strings, but item 1 is the number 3/],
  ["an object field that is a list", { tool_settings: [] }, "tool_settings", /tool_settings must be a JSON object/],
  ["version not semver", { tool_metadata: { version: "1.2" } }, "tool_metadata.version", /"1\.2" is not semantic versioning/],
  ["version not a string", { tool_metadata: { version: 2 } }, "tool_metadata.version", /must be a semver string .* the number 2/],
  ["capabilities malformed", { tool_capabilities: { network: [7] } }, "tool_capabilities", /network/],
  [
    "input schema invalid",
    { tool_api_spec: { entrypoints: { execute: { input: { type: "object", required: "text" } } } } },
    "tool_api_spec.entrypoints.execute.input",
    /not a valid JSON Schema: at \/required must be array/,
  ],
  [
    "input schema not an object's",
    { tool_api_spec: { entrypoints: { execute: { input: { type: "array" } } } } },
    "tool_api_spec.entrypoints.execute.input",
    /must describe an object/,
  ],
  ["entrypoints a list", { tool_api_spec: { entrypoints: [] } }, "tool_api_spec.entrypoints", /must be an object, but it is a list/],
  [
    "a platform's OS unknown",
    { tool_platforms: [{ os: "macos", arch: "arm64" }] },
    "tool_platforms[0].os",
    /must be one of "aix", .*"darwin"/,
  ],
  ["a platform without arch", { tool_platforms: [{ os: "linux" }] }, "tool_platforms[0].arch", /^tool_platforms\[0\]\.arch is required/],
  [
    "a platform field unknown",
    { tool_platforms: [{ os: "linux", arch: "x64", cpu: "zen" }] },
    "tool_platforms[0].cpu",
    /is not a known field/,
  ],
  ["libc for darwin", { tool_platforms: [{ os: "darwin", arch: "arm64", libc: "musl" }] }, "tool_platforms", /libc applies to linux only/],
  [
    "a platform twice",
    {
      tool_platforms: [
        { os: "linux", arch: "x64" },
        { os: "linux", arch: "x64" },
      ],
    },
    "tool_platforms",
    /lists linux-x64 more than once/,
  ],
  ["no platform at all", { tool_platforms: [] }, "tool_platforms", /must NOT have fewer than 1 items/],
];

describe("specProblems", () => {
  it("accepts the example tools as they are", () => {
    expect(specProblems(pythonSpec())).toEqual([]);
    expect(
      specProblems({
        ...binarySpec(),
        tool_platforms: [
          { os: "linux", arch: "arm64", libc: "musl" },
          { os: "win32", arch: "x64" },
        ],
      }),
    ).toEqual([]);
  });

  it.each(RULES)("%s", (_what, fields, path, message) => {
    const problems = specProblems({ ...binarySpec(), ...fields });
    expect(problems.map((problem) => problem.path)).toEqual([path]);
    expect(problems[0]!.message).toMatch(message);
  });

  it("says platforms belong to binary tools", () => {
    const problems = specProblems({ ...pythonSpec(), tool_platforms: [{ os: "linux", arch: "x64" }] });
    expect(problems).toEqual([
      { path: "tool_platforms", message: expect.stringMatching(/applies to binary tools .* remove tool_platforms/) },
    ]);
  });

  it("lists every problem of one spec at once, each with its path", () => {
    const problems = specProblems({
      ...binarySpec(),
      tool_id: "bad id",
      tool_tags: "text",
      tool_metadata: { version: "one" },
      tool_api_spec: { entrypoints: { execute: { input: { type: "object", properties: { a: { type: "strng" } } } } } },
      tool_platforms: [{ os: "linux", arch: "sparc" }],
    });
    expect(problems.map((problem) => problem.path)).toEqual([
      "tool_id",
      "tool_tags",
      "tool_metadata.version",
      "tool_api_spec.entrypoints.execute.input",
      "tool_platforms[0].arch",
    ]);
    const detail = describeSpecProblems(problems);
    expect(detail).toMatch(
      /^spec\.json has 5 problems: tool_id "bad id" is invalid: .*; tool_tags must be .*; tool_metadata\.version "one" .*; tool_platforms\[0\]\.arch must be one of .*\.$/,
    );
    expect(describeSpecProblems(problems.slice(0, 1))).toBe(`${problems[0]!.message.replace(/\.$/, "")}.`);
  });

  it("leaves out the schema's own message where a specific check spoke (no two messages for one field)", () => {
    const problems = specProblems({ ...binarySpec(), tool_tags: 7, tool_metadata: { version: 1 } });
    expect(problems.map((problem) => problem.path)).toEqual(["tool_tags", "tool_metadata.version"]);
  });

  it("takes null for the default and ignores the two fields the registry replaces", () => {
    expect(
      specProblems({ ...binarySpec(), tool_tags: null, tool_platforms: null, tool_man_page_doc: 5, tool_source_code_link: [] }),
    ).toEqual([]);
  });
});
