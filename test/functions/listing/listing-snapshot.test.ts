// Listings without the hot partition (docs/deployment.md#listing-without-a-hot-partition): every
// latest entry, which `GET /tools`, `query/by-*` and the web catalogue serve, is loaded from the
// listing the indexer stores and followed through the revision log; the listing index's one
// partition is read only when no listing is stored, and by the indexer. Storage calls are counted
// on the real EntryStore over the real emulators; the fetch Lambda's handler is the deployed code.
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LatestCatalog } from "../../../functions/catalog/latest-catalog.js";
import { CatalogIndexer } from "../../../functions/indexing/catalog-indexer.js";
import type { PublishedEntry } from "../../../functions/entry/published-entry.js";
import { createLambdaHandler } from "../../../functions/lambda/create-lambda-handler.js";
import { CatalogSearch } from "../../../functions/search/catalog-search.js";
import { decodeListing, encodeListing, LISTING_FORMAT } from "../../../functions/catalog/listing-snapshot.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { IndexSnapshotStore } from "../../../functions/storage/index-snapshot-store.js";
import { CHANGE_LOG_SLOTS, snapshotAttribute } from "../../../functions/storage/revision-log.js";
import { REVISION_KEY } from "../../../functions/storage/table-schema.js";
import { apiGatewayEvent, type ApiGatewayResult } from "../../support/api-gateway-event.js";
import { CountingEntryStore } from "../../support/counting-entry-store.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "../search/search-bundles.js";

let registry: TestRegistry;
const listings = () => new IndexSnapshotStore(createS3Client(registry.local.config), registry.local.config.bucketName, "listing");
const countingStore = () => new CountingEntryStore(createDynamoDocumentClient(registry.local.config), registry.local.config.tableName);
/** A reader as a cold fetch instance has it: the stored listing, then the log. */
const coldReader = () => {
  const store = countingStore();
  return { store, catalog: new LatestCatalog({ store, listings: listings() }, { revalidateMs: 0, onGap: "snapshot" }) };
};
const ids = async (catalog: LatestCatalog) => (await catalog.all()).map((entry) => entry.tool_id);
const edit = (toolId: string, description: string) =>
  fetch(`${registry.url}/tools/${toolId}`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${registry.token}` },
    body: JSON.stringify({ tool_search_description: description }),
  }).then((response) => expect(response.status).toBe(200));
const runIndexer = () => new CatalogIndexer(registry.local.config, countingStore()).run();

beforeAll(async () => {
  // The in-process indexer waits an hour: these tests run it themselves.
  registry = await startTestRegistry({ searchIndexDelayMs: 3_600_000 });
  for (const [toolId, type] of [
    ["alpha-tool", "text"],
    ["beta-tool", "image"],
    ["gamma-tool", "text"],
  ] as const)
    await uploadOrThrow(registry.url, registry.token, echoToolBundle({ tool_id: toolId, tool_type: type, tool_tags: [type] }));
});
afterAll(() => registry?.close());

describe("the listing snapshot", () => {
  const entry = (toolId: string): PublishedEntry => ({ tool_id: toolId, tool_search_embedding: { model: "m", vector: "AAAA" } }) as never;

  it("round-trips every entry, without the search vectors", () => {
    const decoded = decodeListing(encodeListing({ revision: 9, entries: [entry("a"), entry("b")] }));
    expect(decoded).toEqual({ revision: 9, entries: [{ tool_id: "a" }, { tool_id: "b" }] });
  });

  it("refuses another format, a cut-short file and unsorted entries", () => {
    const bytes = encodeListing({ revision: 9, entries: [entry("a"), entry("b")] });
    const text = new TextDecoder().decode(bytes);
    expect(() => decodeListing(new TextEncoder().encode(text.replace(LISTING_FORMAT, "other/1")))).toThrow(/listing format other\/1/);
    expect(() => decodeListing(bytes.subarray(0, text.lastIndexOf('{"tool_id"')))).toThrow(/cut short: 1 entries of 2/);
    expect(() => decodeListing(encodeListing({ revision: 9, entries: [entry("b"), entry("a")] }))).toThrow(/not sorted/);
    expect(() => decodeListing(new TextEncoder().encode("garbage"))).toThrow(RangeError);
  });
});

describe("a cold reader", () => {
  it(
    "with no listing named yet, reads the listing index once and " + "asks S3 for nothing (a new stack before the indexer's first run)",
    async () => {
      // The local server's indexer stored one at start: forget it, as a stack that never ran its indexer.
      const db = createDynamoDocumentClient(registry.local.config);
      await db.send(
        new UpdateCommand({
          TableName: registry.local.config.tableName,
          Key: REVISION_KEY,
          UpdateExpression: "REMOVE #listing, #search",
          ExpressionAttributeNames: { "#listing": snapshotAttribute("listing"), "#search": snapshotAttribute("search") },
        }),
      );
      const store = countingStore();
      const asked: number[] = [];
      const stored = listings();
      const recording = {
        get: (revision: number) => {
          asked.push(revision);
          return stored.get(revision);
        },
        download: (revision: number, file: string) => {
          asked.push(revision);
          return stored.download(revision, file);
        },
      };
      const catalog = new LatestCatalog({ store, listings: recording }, { revalidateMs: 0, onGap: "snapshot" });
      expect(await ids(catalog)).toEqual(["alpha-tool", "beta-tool", "gamma-tool"]);
      expect(store.scans).toBe(1);
      // The search index likewise: no snapshot named, none asked for (S3 answers 403, not 404, to a role without ListBucket).
      const search = new CatalogSearch({ entries: store, snapshots: recording }, 0);
      expect((await search.search({ q: "alpha", limit: 5 })).map((hit) => hit.tool_id)).toContain("alpha-tool");
      expect(asked).toEqual([]);
    },
  );

  it("starts from the listing the indexer stored and applies the writes logged since, reading only those tools", async () => {
    const run = await runIndexer();
    expect(run.listing).toMatchObject({ stored: true, tools: 3 });
    await uploadOrThrow(registry.url, registry.token, echoToolBundle({ tool_id: "delta-tool", tool_type: "text" }));
    await edit("beta-tool", "Now about quokkas");
    const { store, catalog } = coldReader();
    const entries = await catalog.all();
    expect(entries.map((entry) => entry.tool_id)).toEqual(["alpha-tool", "beta-tool", "delta-tool", "gamma-tool"]);
    expect(entries.find((entry) => entry.tool_id === "beta-tool")!.tool_search_description).toBe("Now about quokkas");
    expect(store.scans).toBe(0);
    expect(store.latestReads).toBe(2);
  });

  it("after more writes than the log keeps: serves the newest listing, no scan, then the next listing the indexer stores", async () => {
    await runIndexer();
    for (let i = 0; i <= CHANGE_LOG_SLOTS; i++) await edit("gamma-tool", `Take ${i}`);
    const { store, catalog } = coldReader();
    const behind = await catalog.all();
    expect(behind.find((entry) => entry.tool_id === "gamma-tool")!.tool_search_description).not.toBe(`Take ${CHANGE_LOG_SLOTS}`);
    expect(store.scans).toBe(0);
    // The indexer, the one process that reads the listing index, catches up and stores a new listing.
    const run = await runIndexer();
    expect(run.listing.stored).toBe(true);
    const caughtUp = await catalog.all();
    expect(caughtUp.find((entry) => entry.tool_id === "gamma-tool")!.tool_search_description).toBe(`Take ${CHANGE_LOG_SLOTS}`);
    expect(store.scans).toBe(0);
  });
});

describe("the indexer's listings", () => {
  it("stores again after writes while warm, and nothing while the catalog stands still (cold or warm)", async () => {
    const warm = new CatalogIndexer(registry.local.config, countingStore());
    await warm.run();
    expect((await warm.run()).listing.stored).toBe(false);
    await edit("alpha-tool", "Edited while the indexer is warm");
    const after = await warm.run();
    expect(after.listing.stored).toBe(true);
    expect(after.stored).toBe(true); // the search index's too (a warm indexer used to keep its first snapshot)
    const cold = await new CatalogIndexer(registry.local.config, countingStore()).run();
    expect(cold).toMatchObject({ stored: false, listing: { stored: false } });
  });
});

describe("the fetch Lambda", () => {
  type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;

  it("answers GET /tools, query/by-* and the catalogue from the stored listing, without reading the listing index", async () => {
    await runIndexer();
    await edit("delta-tool", "Edited after the listing");
    // A listing-index read would see this: the pointer's entry changed without a logged revision.
    const { entries } = registry.local.deps;
    const latest = (await entries.reads.getLatest("alpha-tool"))!;
    await entries.versions.replaceVersion({
      ...latest,
      tool_type: "unannounced",
      updated_at: new Date(Date.parse(latest.updated_at) + 1000).toISOString(),
    });
    const fetchHandler = createLambdaHandler("fetch", { env: storageEnv(registry) }) as unknown as Handler;
    const get = async (url: string) => {
      const answer = await fetchHandler(apiGatewayEvent({ method: "GET", url }));
      expect(answer.statusCode, url).toBe(200);
      return answer.body;
    };
    const listed = JSON.parse(await get("/tools")) as PublishedEntry[];
    expect(listed.map((entry) => entry.tool_id)).toEqual(["alpha-tool", "beta-tool", "delta-tool", "gamma-tool"]);
    expect(listed.find((entry) => entry.tool_id === "delta-tool")!.tool_search_description).toBe("Edited after the listing");
    expect(listed.find((entry) => entry.tool_id === "alpha-tool")!.tool_type).toBe("text"); // from the listing: no scan
    expect((JSON.parse(await get("/tools?type=text")) as PublishedEntry[]).map((entry) => entry.tool_id)).toEqual([
      "alpha-tool",
      "delta-tool",
      "gamma-tool",
    ]);
    expect((JSON.parse(await get("/tools/query/by-type?type=image")) as PublishedEntry[]).map((entry) => entry.tool_id)).toEqual([
      "beta-tool",
    ]);
    expect(await get("/")).toContain("delta-tool");
  });
});
