// Property-based fuzzing of the publisher-trust routes (tokens, audit, version lifecycle, keys)
// with every kind of token: any path, query, body and token gets an answer below 500, and a refused
// request changes nothing in storage but, at most, one audit event.
import fc from "fast-check";
import type { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistryApp } from "../../../functions/app.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

let registry: TestRegistry;
let app: Hono;
const tokens: Record<string, string> = {};

const ROUTES = [
  "/tokens",
  "/tokens/{name}",
  "/audit",
  "/tools/{id}/versions/{v}",
  "/publishers/{name}/keys",
  "/publishers/{name}/keys/{key}",
];

const segment = fc.oneof(
  fc.constantFrom(
    "fuzz-tool",
    "other-tool",
    "1.0.0",
    "9.9.9",
    "v1.0.0",
    "fuzzer",
    "admin",
    "%23tokens",
    "%23audit",
    "%23owners",
    "%23keys",
    "%23latest",
    "..",
    "%2F",
    "%00",
    "%",
    "sha256%3Aab",
  ),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: 65, max: 2_000 }).map((length) => "a".repeat(length)),
);
const path = fc
  .tuple(fc.constantFrom(...ROUTES), segment, segment, segment, segment)
  .map(([template, id, v, name, key]) => template.replace("{id}", id).replace("{v}", v).replace("{name}", name).replace("{key}", key));
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom("limit", "cursor", "include_yanked", "x"),
      fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("", "0", "101", "true", "IyNhdWRpdA", "A".repeat(400))),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}`));
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 100 }),
  fc.record(
    {
      name: fc.oneof(fc.constantFrom("fuzzer", "admin", "Fuzz", "-x", ""), fc.string({ maxLength: 70 })),
      scope: fc.oneof(
        fc.constant(["fuzz-*"]),
        fc.array(fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("*", "#x", "a*b", "..")), { maxLength: 60 }),
        fc.string(),
      ),
      actions: fc.oneof(fc.constant(["publish"]), fc.array(fc.constantFrom("publish", "update", "yank", "fly", ""), { maxLength: 6 })),
      expires_in_hours: fc.oneof(fc.integer({ min: -5, max: 10_000 }), fc.double(), fc.constant("1")),
      status: fc.constantFrom("active", "deprecated", "yanked", "gone", ""),
      reason: fc.oneof(fc.string({ maxLength: 30 }), fc.constant("x".repeat(1_100)), fc.constant(5)),
      message: fc.string({ maxLength: 30 }),
      public_key: fc.oneof(fc.string({ maxLength: 60 }), fc.constant("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")),
    },
    { requiredKeys: [] },
  ),
);
const token = fc.constantFrom("admin", "publisher", "yank-only", "revoked", "unknown", "garbage", "none");
const request = fc.record({ method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"), path, query, body, token });

beforeAll(async () => {
  registry = await startTestRegistry({ publisherWritesPerMinute: 100_000 });
  app = createRegistryApp(registry.local.deps);
  const mint = async (name: string, actions: string[]) => {
    const response = await fetch(`${registry.url}/tokens`, {
      method: "POST",
      headers: { authorization: `Bearer ${registry.token}` },
      body: JSON.stringify({ name, scope: ["fuzz-*"], actions }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { token: string }).token;
  };
  tokens.admin = registry.token;
  tokens.publisher = await mint("fuzz-publisher", ["publish", "update", "deprecate", "delete"]);
  tokens["yank-only"] = await mint("fuzz-yanker", ["yank"]);
  tokens.revoked = await mint("fuzz-revoked", ["publish", "yank"]);
  expect(
    (await fetch(`${registry.url}/tokens/fuzz-revoked`, { method: "DELETE", headers: { authorization: `Bearer ${registry.token}` } }))
      .status,
  ).toBe(200);
  tokens.unknown = `at_fuzz-publisher_${"A".repeat(43)}`;
  tokens.garbage = "not-a-token";
  expect(
    (await uploadBundle(registry.url, tokens.publisher, (await fixtureBundle("text-stats", { spec: { tool_id: "fuzz-tool" } })).bundle))
      .status,
  ).toBe(200);
  expect(
    (await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats", { spec: { tool_id: "other-tool" } })).bundle))
      .status,
  ).toBe(200);
});

afterAll(async () => {
  await registry?.close();
});

async function auditCount(): Promise<number> {
  let count = 0;
  let before: string | undefined;
  do {
    const page = await registry.local.deps.trust.audit.page(100, before);
    count += page.events.length;
    before = page.lastKey;
  } while (before !== undefined);
  return count;
}

describe("the trust routes under fuzzing", () => {
  it("answer below 500, and a refused request changes nothing but one audit event", async () => {
    let before = await storageSnapshot(registry.local);
    let events = await auditCount();
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path: url, query: search, body: payload, token: kind }) => {
        const headers: Record<string, string> = {
          "content-type": "application/json",
          ...(kind === "none" ? {} : { authorization: `Bearer ${tokens[kind]}` }),
        };
        const init: RequestInit = { method, headers };
        if (payload !== undefined && method !== "GET") init.body = typeof payload === "string" ? payload : JSON.stringify(payload);
        const response = await app.request(`http://registry.test${url}${search}`, init);
        await response.arrayBuffer();
        const label = `${kind} ${method} ${url}${search} ${String(init.body ?? "").slice(0, 120)} → ${response.status}`;
        expect(response.status, label).toBeLessThan(500);
        const after = await storageSnapshot(registry.local);
        const logged = await auditCount();
        if (response.status >= 400) {
          expect(after, label).toEqual(before);
          expect(logged - events, label).toBeLessThanOrEqual(1);
        }
        before = after;
        events = logged;
      }),
      { numRuns: 200 },
    );
  }, 180_000);
});
