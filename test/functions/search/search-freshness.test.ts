// Freshness after writes costs work proportional to the change: a write names its tool, and the
// latest-entry catalog behind search re-reads that tool instead of scanning every latest entry.
// Storage calls are counted on the real EntryStore (a counting subclass, and the server's own
// instance wrapped), over the real emulators.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LatestCatalog } from "../../../functions/catalog/latest-catalog.js";
import { createDynamoDocumentClient } from "../../../functions/storage/aws-clients.js";
import { EntryReads } from "../../../functions/storage/entry-reads.js";
import type { EntryStore } from "../../../functions/storage/entry-store.js";
import { CHANGE_LOG_SLOTS } from "../../../functions/storage/revision-log.js";
import { CountingEntryStore } from "../../support/counting-entry-store.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "./search-bundles.js";

/** Counts full scans made through the server's own store (`listAllLatest` reads through `forEachLatestPage`). */
function countScans(store: EntryStore): { readonly count: number; restore(): void } {
  const reads = store.reads;
  const original = reads.forEachLatestPage;
  const counter = { count: 0, restore: () => void (reads.forEachLatestPage = original) };
  reads.forEachLatestPage = function (this: EntryReads, onPage) {
    counter.count++;
    return original.call(this, onPage);
  };
  return counter;
}

const tool = (tool_id: string, tool_search_description: string) => echoToolBundle({ tool_id, tool_search_description });

/** Every latest entry read by a store of its own (not counted as the server's scan). */
const freshScan = (registry: TestRegistry) =>
  new EntryReads(createDynamoDocumentClient(registry.local.config), registry.local.config.tableName).listAllLatest();

async function searchIds(registry: TestRegistry, q: string): Promise<string[]> {
  const response = await fetch(`${registry.url}/tools/search?q=${encodeURIComponent(q)}&limit=100`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { results: { tool_id: string }[] }).results.map((hit) => hit.tool_id).sort();
}

function write(registry: TestRegistry, method: "PUT" | "DELETE", toolId: string, body?: unknown): Promise<Response> {
  return fetch(`${registry.url}/tools/${toolId}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${registry.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe.each([
  ["revision checked on every read", 0],
  ["revision checked hourly (freshness from the write's own notification)", 3_600_000],
])("the local server, %s", (_, cacheRevalidateMs) => {
  let registry: TestRegistry;
  let scans: ReturnType<typeof countScans>;

  beforeAll(async () => {
    registry = await startTestRegistry({ cacheRevalidateMs });
    await uploadOrThrow(registry.url, registry.token, tool("text-counter", "Counts words in a text"));
    expect(await searchIds(registry, "words")).toEqual(["text-counter"]); // the search index's one scan
    await registry.local.deps.reader.allLatest(); // the latest-entry catalog's one scan
    scans = countScans(registry.local.deps.entries);
  });

  afterAll(async () => {
    scans?.restore();
    await registry?.close();
  });

  it("shows an upload, a PUT and a DELETE on the next search without scanning storage", async () => {
    await uploadOrThrow(registry.url, registry.token, tool("zip-maker", "Packs files into a zip archive"));
    expect(await searchIds(registry, "archive")).toEqual(["zip-maker"]);

    expect((await write(registry, "PUT", "zip-maker", { tool_search_description: "Packs folders into tarballs" })).status).toBe(200);
    expect(await searchIds(registry, "archive")).toEqual([]);
    expect(await searchIds(registry, "tarballs")).toEqual(["zip-maker"]);

    expect((await write(registry, "DELETE", "zip-maker")).status).toBe(200);
    expect(await searchIds(registry, "tarballs")).toEqual([]);
    expect(scans.count).toBe(0);
  });

  it("shows a tool published through a large upload (/tools/uploads/{id}/complete) without scanning", async () => {
    const auth = { authorization: `Bearer ${registry.token}` };
    const ticket = (await (await fetch(`${registry.url}/tools/uploads`, { method: "POST", headers: auth })).json()) as {
      uploadUrl: string;
      completeUrl: string;
    };
    expect((await fetch(ticket.uploadUrl, { method: "PUT", body: tool("big-bundle", "Arrived through presigned storage") })).status).toBe(
      200,
    );
    expect((await fetch(ticket.completeUrl, { method: "POST", headers: auth })).status).toBe(200);
    expect(await searchIds(registry, "presigned")).toEqual(["big-bundle"]);
    expect(scans.count).toBe(0);
  });

  it("shows every one of many concurrent writes of different tools", async () => {
    const names = Array.from({ length: 8 }, (_, index) => `parallel-${index}`);
    await Promise.all(names.map((name) => uploadOrThrow(registry.url, registry.token, tool(name, "Uploaded alongside others"))));
    expect(await searchIds(registry, "alongside")).toEqual(names);

    const puts = await Promise.all(
      names.map((name) => write(registry, "PUT", name, { tool_search_description: `Concurrent edit ${name}` })),
    );
    expect(puts.map((response) => response.status)).toEqual(names.map(() => 200));
    expect(await searchIds(registry, "concurrent edit")).toEqual(names);
    expect(await searchIds(registry, "alongside")).toEqual([]);

    const deletes = await Promise.all(names.slice(0, 4).map((name) => write(registry, "DELETE", name)));
    expect(deletes.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    expect(await searchIds(registry, "concurrent edit")).toEqual(names.slice(4));
  });

  it("keeps the latest entries behind search and query/by-* equal to a fresh scan, in tool id order", async () => {
    await uploadOrThrow(registry.url, registry.token, tool("aaa-first", "Sorted before everything"));
    expect((await write(registry, "PUT", "text-counter", { tool_search_description: "Counts words and lines" })).status).toBe(200);
    const held = await registry.local.deps.reader.allLatest();
    expect(held).toEqual(await freshScan(registry));
    expect(held[0]?.tool_id).toBe("aaa-first");
    expect(scans.count).toBe(0);
  });
});

describe("another process (a warm Lambda) following the revision log", () => {
  let registry: TestRegistry;
  let store: CountingEntryStore;
  let catalog: LatestCatalog;
  const ids = async () => (await catalog.all()).map((entry) => entry.tool_id);

  beforeAll(async () => {
    registry = await startTestRegistry();
    await uploadOrThrow(registry.url, registry.token, tool("base-tool", "Already there"));
    store = new CountingEntryStore(createDynamoDocumentClient(registry.local.config), registry.local.config.tableName);
    catalog = new LatestCatalog({ store }, { revalidateMs: 0, onGap: "scan" });
    expect(await ids()).toEqual(["base-tool"]);
    expect(store.scans).toBe(1);
  });

  afterAll(async () => {
    await registry?.close();
  });

  afterEach(async () => {
    // Whatever path it took, the catalog ends up equal to a fresh scan, in the same order.
    expect(await catalog.all()).toEqual(await freshScan(registry));
  });

  it("re-reads only the tools that other processes' writes name", async () => {
    store.scans = 0;
    store.latestReads = 0;
    await uploadOrThrow(registry.url, registry.token, tool("a-new-tool", "Written by the server"));
    expect(await ids()).toEqual(["a-new-tool", "base-tool"]);
    expect((await write(registry, "PUT", "base-tool", { tool_search_description: "Edited" })).status).toBe(200);
    expect((await write(registry, "DELETE", "a-new-tool")).status).toBe(200);
    const [latest] = await catalog.all();
    expect(latest).toMatchObject({ tool_id: "base-tool", tool_search_description: "Edited" });
    expect(await catalog.all()).toHaveLength(1);
    expect({ scans: store.scans, latestReads: store.latestReads }).toEqual({ scans: 0, latestReads: 3 });
  });

  it("hands back the same array while nothing changes", async () => {
    const first = await catalog.all();
    expect(await catalog.all()).toBe(first);
  });

  it("scans when a revision names no tool (a bulk import)", async () => {
    store.scans = 0;
    await registry.local.deps.entries.revision.bumpRevision();
    await catalog.all();
    expect(store.scans).toBe(1);
  });

  it("scans when more changes happened than the log keeps", async () => {
    store.scans = 0;
    for (let change = 0; change <= CHANGE_LOG_SLOTS; change++) {
      await registry.local.deps.entries.revision.recordChange({ toolId: "base-tool", kind: "updated" });
    }
    await catalog.all();
    expect(store.scans).toBe(1);
  });
});
