// Every input has a limit, each refusal a 4xx naming the field and the limit; internal items are
// out of reach of every route; a refused request changes nothing in storage.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FIELD_DEPTH, MAX_KEY_BYTES } from "../../../functions/entry/entry-limits.js";
import { MAX_JSON_BODY_BYTES, MAX_JSON_BODY_DEPTH } from "../../../functions/http/read-json-body.js";
import { buildBundle, fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { BUILT_IN_KEY_PARAMETERS, storedEntry } from "../storage/built-in-keys.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;

const request = async (method: string, path: string, body?: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  const answer = (text === "" ? {} : JSON.parse(text)) as { error?: string; detail?: string };
  return { status: response.status, body: answer };
};

/** `{"a":{"a":…}}` nested `depth` levels, built as text (no recursion anywhere). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
}

async function revision(): Promise<number> {
  return (await registry.local.deps.entries.revision.readRevisionLog()).revision;
}

beforeAll(async () => {
  registry = await startTestRegistry();
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
});

afterAll(async () => {
  await registry?.close();
});

describe("internal items", () => {
  it("are out of reach: #catalog and other non-ids are 400 on every route, and the revision survives", async () => {
    const before = await revision();
    const snapshot = await storageSnapshot(registry.local);
    for (const [method, path] of [
      ["GET", "/tools/%23catalog"],
      ["GET", "/tools/%23catalog/versions"],
      ["GET", "/tools/%23catalog/versions/%23revision"],
      ["GET", "/tools/%23catalog/archive"],
      ["DELETE", "/tools/%23catalog"],
      ["PUT", "/tools/%23catalog"],
      ["GET", `/tools/${"a".repeat(1_400)}`],
      ["DELETE", "/tools/..hidden"],
    ] as const) {
      const answer = await request(method, path, method === "PUT" ? '{"tool_search_description":"x"}' : undefined);
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body.error).toBe("Invalid tool id");
    }
    expect(await revision()).toBe(before);
    expect(await storageSnapshot(registry.local)).toEqual(snapshot);
    // Other readers (the web pages) get "no such tool" for a non-id, not an error.
    expect(await registry.local.deps.reader.latest("<script>x</script>")).toBeUndefined();
    expect(await registry.local.deps.reader.versions("#catalog")).toEqual([]);
  });

  it("validates versions in paths before storage, and normalises a leading v", async () => {
    for (const path of [
      "/tools/text-stats/versions/%23latest",
      "/tools/text-stats/versions/latest",
      `/tools/text-stats/versions/1.0.0-${"x".repeat(200)}`,
    ]) {
      const answer = await request("GET", path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error).toBe("Invalid version");
    }
    expect((await request("GET", "/tools/text-stats/versions/v1.0.0")).status).toBe(200);
  });
});

describe("PUT /tools/{id}", () => {
  it("refuses a body over its limit without reading it, naming the limit", async () => {
    const answer = await request("PUT", "/tools/text-stats", JSON.stringify({ tool_search_description: "x".repeat(MAX_JSON_BODY_BYTES) }));
    expect(answer.status).toBe(413);
    expect(answer.body.detail).toContain(String(MAX_JSON_BODY_BYTES));
  });

  it("refuses an entry over its stored budget, naming the largest field", async () => {
    const snapshot = await storageSnapshot(registry.local);
    const answer = await request("PUT", "/tools/text-stats", JSON.stringify({ tool_search_description: "x".repeat(420_000 - 100_000) }));
    expect(answer.status).toBe(413);
    expect(answer.body.detail).toMatch(/over its budget of 307200 bytes.*tool_search_description \d+ bytes/);
    expect(await storageSnapshot(registry.local)).toEqual(snapshot);
  });

  it("refuses JSON nested deeper than the database stores, 10,000 levels included, without a stack overflow", async () => {
    for (const depth of [MAX_FIELD_DEPTH + 1, MAX_JSON_BODY_DEPTH - 1]) {
      const answer = await request("PUT", "/tools/text-stats", `{"tool_settings":${nested(depth)}}`);
      expect(answer.status, `depth ${depth}`).toBe(422);
      expect(answer.body.detail).toMatch(new RegExp(`tool_settings nests more than ${MAX_FIELD_DEPTH} levels`));
    }
    // Past the body's own bound the body is refused before anything reads it.
    for (const depth of [MAX_JSON_BODY_DEPTH, 1_000, 10_000]) {
      const answer = await request("PUT", "/tools/text-stats", `{"tool_settings":${nested(depth)}}`);
      expect(answer.status, `depth ${depth}`).toBe(422);
      expect(answer.body.detail).toContain(`nests more than ${MAX_JSON_BODY_DEPTH} levels deep at "tool_settings"`);
    }
    expect((await request("PUT", "/tools/text-stats", `{"tool_settings":${nested(MAX_FIELD_DEPTH)}}`)).status).toBe(200);
  });
});

describe("values the database cannot store", () => {
  it("are 422 naming the field, on PUT and upload: empty, over-long or __proto__ keys, numbers out of range", async () => {
    const snapshot = await storageSnapshot(registry.local);
    const fixture = await fixtureBundle("text-stats");
    const spec = JSON.stringify({ ...fixture.spec, tool_id: "unstorable" }).slice(0, -1);
    for (const [json, problem] of [
      ['{"properties":{"":{"type":"string"}}}', "has an empty object key"],
      ['{"properties":{"__proto__":false}}', 'has the object key "__proto__"'],
      ['[{"a":[{"__proto__":{"x":1}}]}]', 'has the object key "__proto__"'],
      [`{"${"k".repeat(MAX_KEY_BYTES + 1)}":1}`, `has an object key of ${MAX_KEY_BYTES + 1} bytes`],
      ['{"maximum":1e20}', "holds the number 100000000000000000000"],
      ['{"minimum":-9007199254740992}', "holds the number -9007199254740992"],
      ['{"epsilon":1e-200}', "holds the number 1e-200"],
    ] as const) {
      const put = await request("PUT", "/tools/text-stats", `{"tool_settings":${json}}`);
      expect(put.status, json.slice(0, 40)).toBe(422);
      expect(put.body.detail).toContain(`tool_settings ${problem}`);
      const bundle = buildBundle({ spec: `${spec},"tool_parameters":${json}}`, toolZip: fixture.toolZip, toolMd: "# x\n" });
      const uploaded = await uploadBundle(registry.url, registry.token, bundle);
      expect(uploaded.status, json.slice(0, 40)).toBe(422);
      expect(String(uploaded.body.detail)).toContain(`tool_parameters ${problem}`);
    }
    expect(await storageSnapshot(registry.local)).toEqual(snapshot);
  });
});

describe("values the database stores", () => {
  it("keep object keys that name JavaScript built-ins (constructor, toString, valueOf) exactly, on upload and PUT", async () => {
    const fixture = await fixtureBundle("text-stats");
    for (const [index, parameters] of BUILT_IN_KEY_PARAMETERS.entries()) {
      const toolId = `built-in-keys-${index}`;
      const spec = { ...fixture.spec, tool_id: toolId, tool_metadata: { version: "1.0.0" }, tool_parameters: parameters };
      const uploaded = await uploadBundle(registry.url, registry.token, buildBundle({ spec, toolZip: fixture.toolZip, toolMd: "# x\n" }));
      expect(uploaded.status, JSON.stringify(parameters)).toBe(200);
      expect((await storedEntry(registry.local, toolId, "1.0.0"))?.tool_parameters).toEqual(parameters);
      const edited = { ...parameters, description: "edited" };
      expect((await request("PUT", `/tools/${toolId}`, JSON.stringify({ tool_settings: edited }))).status).toBe(200);
      expect((await storedEntry(registry.local, toolId, "1.0.0"))?.tool_settings).toEqual(edited);
    }
  });
});

describe("uploads", () => {
  it("refuse spec.json fields nested past the limit (tool_parameters 10,000 deep, execute.input 1,000 deep)", async () => {
    const snapshot = await storageSnapshot(registry.local);
    const fixture = await fixtureBundle("text-stats");
    const base = JSON.stringify({ ...fixture.spec, tool_id: "deep" }).slice(0, -1);
    // Written as text: a 10,000-deep value would overflow JSON.stringify's own recursion.
    const cases = [
      { spec: `${base},"tool_parameters":${nested(10_000)}}`, field: "tool_parameters" },
      { spec: `${base},"tool_api_spec":{"entrypoints":{"execute":{"input":${nested(1_000)}}}}}`, field: "tool_api_spec" },
    ];
    for (const { spec, field } of cases) {
      const bundle = buildBundle({ spec, toolZip: fixture.toolZip, toolMd: "# deep\n" });
      const result = await uploadBundle(registry.url, registry.token, bundle);
      expect(result.status, field).toBe(422);
      expect(String(result.body.detail)).toContain(`${field} nests more than ${MAX_FIELD_DEPTH} levels`);
    }
    expect(await storageSnapshot(registry.local)).toEqual(snapshot);
  });
});
