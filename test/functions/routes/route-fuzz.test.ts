// Property-based fuzzing of every route: any path, query, headers and body gets an answer below 500,
// and a refused request (4xx) leaves storage exactly as it was.
import { createHmac } from "node:crypto";
import fc from "fast-check";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryApp } from "../../../functions/app.js";
import { MAX_JSON_BODY_DEPTH } from "../../../functions/http/read-json-body.js";
import { listingScope } from "../../../functions/listing/page-cursor.js";
import { buildBundle, fixtureBundle, type FixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot, type StorageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;
let app: Hono;
let fixture: FixtureBundle;

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
  "/tools/query/generic",
  "/registry/doctor",
  "/schemas/spec.json",
  "/health",
  "/",
  "/t/{id}",
  "/t/{id}/{v}",
];

/** Path segments: valid ids and versions, internal keys, encodings, huge and odd text. */
const segment = fc.oneof(
  fc.constantFrom(
    "text-stats",
    "1.0.0",
    "v1.0.0",
    "%23catalog",
    "%23latest",
    "%23revision",
    "..",
    ".",
    "%2F",
    "%00",
    "%E0%A4%A",
    "%",
    "%%",
    "a%2Fb",
    "upload",
    "search",
    "query",
  ),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.stringMatching(/^[A-Za-z0-9._~-]{1,20}$/),
  fc.integer({ min: 129, max: 3_000 }).map((length) => "a".repeat(length)),
);
const path = fc
  .tuple(fc.constantFrom(...ROUTES), segment, segment, segment)
  .map(([template, id, v, u]) => template.replace("{id}", id).replace("{v}", v).replace("{u}", u));
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom("limit", "cursor", "type", "tag", "keyword", "mode", "uri", "q", "page", "updated_since", "fix", "x"),
      fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom("", "0", "-1", "1e309", "NaN", "A".repeat(1_400), "%ZZ"),
        fc.integer().map(String),
      ),
    ),
    { maxLength: 4 },
  )
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}`));
const nested = fc.integer({ min: 1, max: 3_000 }).map((depth) => `{"tool_parameters":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`);
/**
 * JSON values of the kinds the database refuses or the SDK cannot store exactly (docs/durability.md,
 * "Limits"): empty and long keys, numbers of any magnitude, deep nesting, beside ordinary values.
 */
const hostileKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("", "__proto__", "constructor", "toString", "#latest", "k".repeat(1_025)),
);
const hostileNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e300, -1e20, 2 ** 53, 5e-324, 1e-131, 9007199254740991, 0, -0),
);
const { hostile } = fc.letrec((tie) => ({
  hostile: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileNumber,
    fc.string({ maxLength: 20 }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("hostile"), { maxLength: 3 }),
    fc.dictionary(hostileKey, tie("hostile"), { maxKeys: 3 }),
    fc.integer({ min: 25, max: 40 }).map((depth) => JSON.parse(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`) as unknown),
  ),
}));
/** The fields an entry stores from spec.json and PUT, each given a hostile value. */
const storedField = fc.constantFrom(
  "tool_parameters",
  "tool_api_spec",
  "tool_metadata",
  "tool_tags",
  "tool_search_description",
  "tool_capabilities",
  "tool_execution_mode",
);
const hostileFields = fc.dictionary(storedField, hostile, { minKeys: 1, maxKeys: 2 });

const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 4 }),
  hostileFields.map((fields) => JSON.stringify(fields)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 300 }),
  nested,
  fc.constantFrom(
    '{"tool_search_description":"fuzzed"}',
    '{"tool_id":"other"}',
    '{"fix":true,"graceSeconds":0}',
    '{"size":1e30}',
    "null",
    "[]",
    '{"__proto__":{"x":1}}',
  ),
);
const headers = fc.record(
  {
    authorization: fc.oneof(fc.constant("TOKEN"), fc.constant("Bearer wrong"), fc.string({ maxLength: 30 }), fc.constant("Bearer")),
    "content-type": fc.constantFrom(
      "application/json",
      "multipart/form-data; boundary=x",
      "multipart/form-data",
      "text/plain",
      "application/octet-stream",
      ";;;",
    ),
    "if-none-match": fc.string({ maxLength: 70 }),
    "x-forwarded-host": fc.string({ maxLength: 30 }).filter((value) => !/[\r\n]/.test(value)),
  },
  { requiredKeys: [] },
);
const request = fc.record({
  method: fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
  path,
  query,
  headers,
  body,
});

beforeAll(async () => {
  registry = await startTestRegistry();
  fixture = await fixtureBundle("text-stats");
  expect((await uploadBundle(registry.url, registry.token, fixture.bundle)).status).toBe(200);
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
        const init: RequestInit = {
          method,
          headers: { ...sent, ...(sent.authorization === "TOKEN" ? { authorization: `Bearer ${registry.token}` } : {}) },
        };
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

  // Requests that get past authentication and the path checks, so the body reaches storage.
  it("stores hostile field values through an authorised PUT or upload, or refuses them with a 4xx that changes nothing", async () => {
    let before: StorageSnapshot = await storageSnapshot(registry.local);
    let version = 0;
    const authorised = { authorization: `Bearer ${registry.token}` };
    await fc.assert(
      fc.asyncProperty(fc.boolean(), hostileFields, async (viaUpload, fields) => {
        let response: Response;
        if (viaUpload) {
          const spec = { ...fixture.spec, ...fields, tool_id: "fuzzed-upload", tool_metadata: { version: `1.0.${version++}` } };
          const form = new FormData();
          form.set(
            "file",
            new Blob([buildBundle({ spec, toolZip: fixture.toolZip, toolMd: "# fuzzed\n" }) as Uint8Array<ArrayBuffer>]),
            "bundle.zip",
          );
          response = await app.request("http://registry.test/tools/upload", { method: "POST", headers: authorised, body: form });
        } else {
          response = await app.request("http://registry.test/tools/text-stats", {
            method: "PUT",
            headers: { ...authorised, "content-type": "application/json" },
            body: JSON.stringify(fields),
          });
        }
        const answer = await response.text();
        expect(
          response.status,
          `${viaUpload ? "upload" : "PUT"} ${JSON.stringify(fields).slice(0, 300)}: ${answer.slice(0, 300)}`,
        ).toBeLessThan(500);
        const after = await storageSnapshot(registry.local);
        if (response.status >= 400) expect(after, answer.slice(0, 300)).toEqual(before);
        before = after;
      }),
      { numRuns: 80 },
    );
  }, 120_000);

  // A cursor is `<base64url payload>.<MAC>`; a forger who knows the recipe, and even the secret, gets nothing but 400s.
  it("refuses every cursor not issued for its listing with a 400 " +
    "naming cursor, forged with the registry's own secret included", async () => {
    const secret = registry.local.config.cursorKey!;
    const sign = (key: Buffer, payload: string) => {
      const body = Buffer.from(payload, "utf8").toString("base64url");
      return `${body}.${createHmac("sha256", key).update(body).digest().subarray(0, 16).toString("base64url")}`;
    };
    const macKey = (text: string) => createHmac("sha256", "agent-tools page cursor").update(text).digest();
    const registryKey = macKey(secret);
    // The key every registry used to share: derived from the public table and bucket names.
    const publicKey = macKey(`${registry.local.config.tableName}\0${registry.local.config.bucketName}`);
    const listings = [
      { method: "GET", path: "/tools", scope: listingScope("/tools", {}), valid: "a" },
      {
        method: "GET",
        path: "/tools/text-stats/versions",
        scope: listingScope("/tools/text-stats/versions", { include_yanked: "false" }),
        valid: "9.0.0",
      },
      { method: "GET", path: "/tools/query/by-tag?tag=text", scope: listingScope("/tools/query/by-tag", { tag: "text" }), valid: "a" },
      { method: "POST", path: "/tools/query/generic", scope: undefined, valid: "a" },
      { method: "GET", path: "/tools/search?q=text", scope: undefined, valid: "0" },
      { method: "GET", path: "/audit", scope: listingScope("/audit", {}), valid: undefined },
    ];
    // Positions no listing issues: not a tool id, a version, an offset nor an audit key (a valid one would be a genuine cursor).
    const position = fc.constantFrom("#latest", "#catalog", "..", "a/b", "a".repeat(200), "9".repeat(129), "-1", "", " ", "_x");
    const payload = fc.oneof(
      // Not the two strings an issued cursor holds: null, numbers, objects, other arities, non-string positions, not JSON.
      fc.json({ maxDepth: 3 }),
      fc.constantFrom("null", "1", "[]", '["x"]', '["a","b","c"]', "{}", "not json", "\u0000", ""),
      fc
        .tuple(fc.string({ maxLength: 10 }), fc.oneof(fc.integer(), fc.constant(null), fc.array(fc.string()), fc.object()))
        .map((pair) => JSON.stringify(pair)),
      // The right shape for another listing, or an invalid position in this one.
      fc.tuple(fc.constantFrom(...listings.map((listing) => listing.scope ?? "x")), position).map((pair) => JSON.stringify(pair)),
    );
    const cursor = fc.oneof(
      payload.map((text) => ({ text, by: "the registry's secret" })).map(({ text, by }) => ({ cursor: sign(registryKey, text), by, text })),
      payload.map((text) => ({ cursor: sign(publicKey, text), by: "the public key", text })),
      fc.string({ minLength: 1, maxLength: 60 }).map((text) => ({ cursor: text, by: "no key", text })),
      fc.integer({ min: 1_025, max: 5_000 }).map((length) => ({ cursor: "A".repeat(length), by: "no key", text: "oversize" })),
    );
    const before = await storageSnapshot(registry.local);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...listings), cursor, async (listing, forged) => {
        // A payload that happens to be exactly right for this listing, under the registry's key, is a genuine cursor.
        const genuine = forged.by === "the registry's secret" && forged.text === JSON.stringify([listing.scope, listing.valid]);
        if (genuine) return;
        const separator = listing.path.includes("?") ? "&" : "?";
        const response = await app.request(`http://registry.test${listing.path}${separator}cursor=${encodeURIComponent(forged.cursor)}`, {
          method: listing.method,
          headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
          ...(listing.method === "POST" ? { body: "{}" } : {}),
        });
        const answer = (await response.json()) as { error?: string; detail?: string };
        const label = `${listing.path} with a cursor signed by ${forged.by} over ${JSON.stringify(forged.text.slice(0, 80))}`;
        expect(response.status, label).toBe(400);
        expect(answer.error, label).toBe("Invalid cursor");
        expect(answer.detail, label).toMatch(/^The cursor /);
      }),
      { numRuns: 200 },
    );
    // The recipe is right: signed with the registry's secret, a well-formed position is a page.
    for (const listing of listings.filter((candidate) => candidate.scope !== undefined && candidate.valid !== undefined)) {
      const genuine = sign(registryKey, JSON.stringify([listing.scope, listing.valid]));
      const separator = listing.path.includes("?") ? "&" : "?";
      const response = await app.request(`http://registry.test${listing.path}${separator}cursor=${genuine}`);
      expect(response.status, listing.path).toBe(200);
    }
    expect(await storageSnapshot(registry.local)).toEqual(before);
  }, 120_000);

  it("refuses JSON bodies nested past the bound on every route that reads one, however deep, without a 5xx or a change", async () => {
    const routes = [
      ["PUT", "/tools/text-stats"],
      ["PATCH", "/tools/text-stats/versions/1.0.0"],
      ["POST", "/tools/query/generic"],
      ["POST", "/tools/uploads"],
      ["POST", "/registry/doctor"],
      ["POST", "/tokens"],
      ["PUT", "/publishers/admin/keys"],
    ] as const;
    // Objects and lists mixed, under a member the route knows or not; built as text, so no recursion in the test either.
    const deep = fc.record({
      depth: fc.oneof(fc.integer({ min: 1, max: MAX_JSON_BODY_DEPTH + 2 }), fc.integer({ min: MAX_JSON_BODY_DEPTH, max: 60_000 })),
      member: fc.constantFrom("tool_parameters", "status", "name", "fix", "size", "public_key", "x"),
      openers: fc.array(fc.constantFrom('{"a":', "["), { minLength: 1, maxLength: 4 }),
    });
    let before = await storageSnapshot(registry.local);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), deep, async ([method, path], { depth, member, openers }) => {
        const levels = Array.from({ length: depth }, (_, level) => openers[level % openers.length]!);
        const value = `${levels.join("")}1${levels
          .map((opener) => (opener === "[" ? "]" : "}"))
          .reverse()
          .join("")}`;
        const response = await app.request(`http://registry.test${path}`, {
          method,
          headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
          body: `{"${member}":${value}}`,
        });
        const answer = (await response.json()) as { error?: string };
        const label = `${method} ${path} with ${member} nested ${depth} levels → ${response.status} ${answer.error}`;
        expect(response.status, label).toBeLessThan(500);
        // The body nests one level more than its member; past the bound it is refused as such (or as too large to read).
        if (depth + 1 > MAX_JSON_BODY_DEPTH) expect(["Request body too deep", "Request body too large"], label).toContain(answer.error);
        const after = await storageSnapshot(registry.local);
        if (response.status >= 400) expect(after, label).toEqual(before);
        before = after;
      }),
      { numRuns: 120 },
    );
  }, 120_000);
});
