// Property-based fuzzing of every route: any path, query, headers and body gets an answer below 500,
// and a refused request (4xx) leaves storage exactly as it was.
import fc from "fast-check";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryApp } from "../../functions/app.js";
import { fixtureBundle } from "../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../support/registry.js";
import { storageSnapshot, type StorageSnapshot } from "./storage-snapshot.js";

let registry: TestRegistry;
let app: Hono;

const ROUTES = [
  "/tools",
  "/tools/{id}",
  "/tools/{id}/versions",
  "/tools/{id}/versions/{v}",
  "/tools/{id}/archive",
  "/tools/{id}/versions/{v}/archive",
  "/tools/upload",
  "/tools/uploads",
  "/tools/uploads/{u}/complete",
  "/tools/search",
  "/tools/query/by-type",
  "/tools/query/by-tag",
  "/tools/query/by-keyword",
  "/tools/query/by-execution-mode",
  "/tools/query/by-policy-uri",
  "/registry/doctor",
  "/health",
];

/** Path segments: valid ids and versions, internal keys, encodings, huge and odd text. */
const segment = fc.oneof(
  fc.constantFrom("text-stats", "1.0.0", "v1.0.0", "%23catalog", "%23latest", "%23revision", "..", ".", "%2F", "%00", "%E0%A4%A", "%", "%%", "a%2Fb", "upload", "search", "query"),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/),
  fc.integer({ min: 129, max: 3_000 }).map((length) => "a".repeat(length)),
);
const path = fc.tuple(fc.constantFrom(...ROUTES), segment, segment, segment).map(([template, id, v, u]) =>
  template.replace("{id}", id).replace("{v}", v).replace("{u}", u),
);
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom("limit", "cursor", "type", "tag", "keyword", "mode", "uri", "q", "updated_since", "fix", "x"),
      fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("", "0", "-1", "1e309", "NaN", "A".repeat(1_400), "%ZZ"), fc.integer().map(String)),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}`));
const nested = fc.integer({ min: 1, max: 3_000 }).map((depth) => `{"tool_parameters":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }),
  nested,
  fc.constantFrom('{"tool_search_description":"fuzzed"}', '{"tool_id":"other"}', '{"fix":true,"graceSeconds":0}', '{"size":1e30}', "null", "[]", '{"__proto__":{"x":1}}'),
);
const headers = fc.record(
  {
    authorization: fc.oneof(fc.constant("TOKEN"), fc.constant("Bearer wrong"), fc.string({ maxLength: 30 }), fc.constant("Bearer")),
    "content-type": fc.constantFrom("application/json", "multipart/form-data; boundary=x", "multipart/form-data", "text/plain", "application/octet-stream", ";;;"),
    "if-none-match": fc.string({ maxLength: 70 }),
    "x-forwarded-host": fc.string({ maxLength: 30 }).filter((value) => !/[\r\n]/.test(value)),
  },
  { requiredKeys: [] },
);
const request = fc.record({ method: fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"), path, query, headers, body });

beforeAll(async () => {
  registry = await startTestRegistry();
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
  app = createRegistryApp(registry.local.deps);
});

afterAll(async () => {
  await registry?.close();
});

describe("every route under fuzzing", () => {
  it("answers below 500, and a refused request changes nothing in storage", async () => {
    let before: StorageSnapshot = await storageSnapshot(registry.local);
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path: url, query: search, headers: sent, body: payload }) => {
        const init: RequestInit = { method, headers: { ...sent, ...(sent.authorization === "TOKEN" ? { authorization: `Bearer ${registry.token}` } : {}) } };
        if (payload !== undefined && method !== "GET" && method !== "HEAD") init.body = payload as RequestInit["body"];
        const response = await app.request(`http://registry.test${url}${search}`, init);
        await response.arrayBuffer();
        expect(response.status, `${method} ${url}${search}`).toBeLessThan(500);
        const after = await storageSnapshot(registry.local);
        if (response.status >= 400) expect(after, `${method} ${url}${search} → ${response.status}`).toEqual(before);
        before = after;
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
