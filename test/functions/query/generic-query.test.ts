/**
 * `POST /tools/query/generic` (the Python registry's filter query) over real HTTP: the supported
 * subset (equality, `$in`, `$exists`, dotted paths) answers like MongoDB would, and everything else
 * is a 400 that says what is supported.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_BODY_DEPTH } from "../../../functions/http/read-json-body.js";
import { buildBundle, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;

const TOOLS = [
  { tool_id: "alpha", tool_type: "text-processing", tool_tags: ["nlp", "text"], tool_metadata: { version: "1.0.0", author: "Ann" } },
  { tool_id: "beta", tool_type: "utility", tool_tags: ["math"], tool_metadata: { version: "2.0.0" } },
  {
    tool_id: "gamma",
    tool_type: "text-processing",
    tool_tags: ["ml"],
    tool_metadata: { version: "0.1.0", author: "Bo" },
    tool_execution_mode: "local_code",
  },
];

beforeAll(async () => {
  registry = await startTestRegistry();
  const toolZip = zipFiles({ "code/function.py": "class AgentSpaceV1Tool:\n    pass\n" });
  for (const tool of TOOLS) {
    const spec = { ...readFixtureSpec("text-stats"), ...tool };
    expect((await uploadBundle(registry.url, registry.token, buildBundle({ spec, toolZip, toolMd: `# ${tool.tool_id}` }))).status).toBe(
      200,
    );
  }
});
afterAll(async () => {
  await registry?.close();
});

async function query(filter: unknown, search = "") {
  const response = await fetch(`${registry.url}/tools/query/generic${search}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof filter === "string" ? filter : JSON.stringify(filter),
  });
  return { status: response.status, body: (await response.json()) as unknown, link: response.headers.get("link") };
}

const ids = (body: unknown) => (body as { tool_id: string }[]).map((entry) => entry.tool_id);

describe("POST /tools/query/generic", () => {
  it.each([
    [{}, ["alpha", "beta", "gamma"]],
    [{ tool_type: "text-processing" }, ["alpha", "gamma"]],
    [{ tool_tags: "nlp" }, ["alpha"]], // a list field matches a value it contains
    [{ tool_tags: ["math"] }, ["beta"]], // or an equal list
    [{ tool_id: { $in: ["beta", "gamma", "nobody"] } }, ["beta", "gamma"]],
    [{ tool_tags: { $in: ["ml", "math"] } }, ["beta", "gamma"]],
    [{ "tool_metadata.author": { $exists: true } }, ["alpha", "gamma"]],
    [{ "tool_metadata.author": { $exists: false } }, ["beta"]],
    [{ "tool_metadata.author": null }, ["beta"]], // null matches a missing value
    [{ "tool_metadata.author": "Bo", tool_type: "text-processing" }, ["gamma"]],
    [{ tool_execution_mode: "local_code" }, ["gamma"]],
    [{ version: "2.0.0" }, ["beta"]],
    [{ tool_type: "nothing-like-this" }, []],
  ])("%j matches %j", async (filter, expected) => {
    const { status, body } = await query(filter);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expected);
  });

  it("answers full entries, paged like GET /tools", async () => {
    const first = await query({ tool_type: "text-processing" }, "?limit=1");
    expect(ids(first.body)).toEqual(["alpha"]);
    expect((first.body as Record<string, unknown>[])[0]).toMatchObject({
      tool_id: "alpha",
      tool_man_page_doc: "# alpha",
      tool_source_code_link: expect.stringContaining("/tools/alpha/versions/1.0.0/archive"),
    });
    const next = /<([^>]+)>; rel="next"/.exec(first.link ?? "")?.[1];
    expect(next).toBeDefined();
    const second = await fetch(next!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool_type: "text-processing" }),
    });
    expect(ids(await second.json())).toEqual(["gamma"]);
    // The cursor belongs to that filter: another body is refused, not answered with a wrong page.
    const other = await fetch(next!, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({}) });
    expect(other.status).toBe(400);
  });

  it.each([
    [{ $where: "sleep(1000)" }, /"\$where" is not supported: only per-field conditions are/],
    [{ $or: [{ tool_id: "alpha" }] }, /"\$or" is not supported/],
    [{ tool_id: { $regex: "^a" } }, /"tool_id": the operator \$regex is not supported/],
    [{ tool_id: { $ne: "alpha" } }, /the operator \$ne is not supported/],
    [{ password: "x" }, /"password" is not a queryable ToolEntry field/],
    [{ tool_source_code_link: "x" }, /"tool_source_code_link" is not a queryable ToolEntry field/],
    [{ "tool_id.length": 5 }, /goes inside tool_id, which is not an object field/],
    [{ tool_id: { $in: "alpha" } }, /\$in needs a list of values/],
    [{ tool_id: { $exists: 1 } }, /\$exists needs true or false/],
    [{ tool_metadata: { $exists: true, author: "Ann" } }, /mixes operators and fields/],
    [["tool_id"], /The body is an array/],
    ["", /The body is empty/],
  ])("refuses %j with a 400 that says what is supported", async (filter, problem) => {
    const { status, body } = await query(filter);
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "Invalid query", detail: expect.stringMatching(problem) });
    expect((body as { detail: string }).detail).toContain('{"$in": [values]} or {"$exists": true|false}');
  });

  it("refuses a body that is not JSON, and huge $in lists", async () => {
    expect((await query("{ not json")).status).toBe(400);
    const huge = await query({ tool_id: { $in: Array.from({ length: 1001 }, (_, i) => `t${i}`) } });
    expect(huge.status).toBe(400);
    expect(JSON.stringify(huge.body)).toMatch(/at most 1000/);
  });

  it("refuses a filter nested past the body limit with a 422 naming the condition, 100,000 levels included", async () => {
    // Built as text: no recursion anywhere, here or in the registry.
    const nested = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
    for (const depth of [MAX_JSON_BODY_DEPTH, 5_000, 100_000]) {
      const { status, body } = await query(`{"tool_tags":${nested(depth)}}`);
      expect(status, `depth ${depth}`).toBe(422);
      expect(body).toMatchObject({ error: "Request body too deep", detail: expect.stringContaining('at "tool_tags"') });
    }
    // The deepest body that is let through is matched like any other (nothing stored is that deep).
    const deepest = await query(`{"tool_tags":${nested(MAX_JSON_BODY_DEPTH - 1)}}`);
    expect(deepest.status).toBe(200);
    expect(deepest.body).toEqual([]);
  });
});
