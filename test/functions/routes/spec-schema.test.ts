/**
 * The spec.json JSON Schema: served at GET /schemas/spec.json, satisfied by the example tools,
 * enforced at upload for what the field checks do not cover, and the missing-version warning.
 */
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;
const toolZip = zipFiles({ "code/function.py": "class AgentSpaceV1Tool:\n    pass\n" });

beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(async () => {
  await registry?.close();
});

const upload = (spec: Record<string, unknown>) => uploadBundle(registry.url, registry.token, buildBundle({ spec, toolZip, toolMd: "# x" }));

describe("GET /schemas/spec.json", () => {
  it("serves a JSON Schema that the example tools satisfy and a broken spec does not", async () => {
    const response = await fetch(`${registry.url}/schemas/spec.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/schema+json");
    const schema = (await response.json()) as Record<string, unknown>;
    expect(schema).toMatchObject({ $schema: "http://json-schema.org/draft-07/schema#", required: ["tool_id"] });
    const validate = new Ajv({ strict: false }).compile(schema);
    for (const name of ["text-stats", "binary-increment"] as const)
      expect(validate(readFixtureSpec(name)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ tool_id: "a/b" })).toBe(false);
    expect(validate({ tool_id: "a..b" })).toBe(false);
    expect(validate({ tool_search_description: "no id" })).toBe(false);
  });
});

describe("uploads", () => {
  it("are held to the whole schema: a field the type checks do not look into is refused with its path", async () => {
    const spec = {
      ...readFixtureSpec("text-stats"),
      tool_id: "schema-checked",
      tool_api_spec: { entrypoints: { execute: { input: { type: "object" }, output: "a string" } } },
    };
    const result = await upload(spec);
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ code: "INVALID_SPEC" });
    expect(result.body.detail).toMatch(/tool_api_spec\.entrypoints\.execute\.output must be object \(GET \/schemas\/spec\.json\)/);
  });

  it("warn when spec.json has no version, and say nothing when it has one", async () => {
    const unversioned: Record<string, unknown> = { ...readFixtureSpec("text-stats"), tool_id: "no-version" };
    delete unversioned.tool_metadata;
    const warned = await upload(unversioned);
    expect(warned.status).toBe(200);
    expect(warned.body).toMatchObject({
      tool_id: "no-version",
      version: "0.0.0",
      warnings: [expect.stringMatching(/no tool_metadata\.version, so the tool is published as 0\.0\.0/)],
    });
    const quiet = await upload({ ...readFixtureSpec("text-stats"), tool_id: "with-version" });
    expect(quiet.body).toEqual({ message: "Tool uploaded successfully", tool_id: "with-version", version: "1.0.0" });
  });
});
