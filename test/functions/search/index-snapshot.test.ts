// The search index as an artifact: built and stored by the indexer, loaded by a cold instance,
// which then applies only the revisions logged since. Storage calls are counted on the real
// EntryStore over the real emulators.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLambdaHandler } from "../../../functions/lambda/create-lambda-handler.js";
import { createIndexerHandler } from "../../../functions/lambda/indexer.js";
import { CatalogSearch } from "../../../functions/search/catalog-search.js";
import { SearchIndexer } from "../../../functions/search/search-indexer.js";
import { searchSources } from "../../../functions/search/search-sources.js";
import { ToolSearchIndex } from "../../../functions/search/tool-search-index.js";
import { createDynamoDocumentClient } from "../../../functions/storage/aws-clients.js";
import { CHANGE_LOG_SLOTS } from "../../../functions/storage/revision-log.js";
import { apiGatewayEvent, resultBytes, type ApiGatewayResult } from "../../support/api-gateway-event.js";
import { CountingEntryStore } from "../../support/counting-entry-store.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../../support/registry.js";
import { LABELLED_QUERIES, relevanceCatalog } from "./relevance-catalog.js";
import { echoToolBundle, uploadOrThrow } from "./search-bundles.js";
import { seedCatalog } from "./seed-catalog.js";

let registry: TestRegistry;
const coldSearch = () => {
  const entries = new CountingEntryStore(createDynamoDocumentClient(registry.local.config), registry.local.config.tableName);
  const sources = searchSources({ config: registry.local.config, entries });
  return { entries, search: new CatalogSearch(sources, 0), sources };
};
const ids = async (search: CatalogSearch, q: string) => (await search.search({ q, limit: 100 })).map((hit) => hit.tool_id).sort();
const write = (method: "PUT" | "DELETE", toolId: string, body?: unknown) =>
  fetch(`${registry.url}/tools/${toolId}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${registry.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  // The in-process indexer waits an hour: these tests run the indexer themselves.
  registry = await startTestRegistry({ searchIndexDelayMs: 3_600_000 });
  await seedCatalog(registry.local, relevanceCatalog());
});

afterAll(async () => {
  await registry?.close();
});

describe("a snapshot", () => {
  it("loads into an index that ranks exactly as the one it was taken from, at the same revision", () => {
    const built = ToolSearchIndex.build(
      relevanceCatalog().map((tool) => ({ ...tool, version: "1.0.0" })),
      42,
    );
    const loaded = ToolSearchIndex.open(built.serialize());
    expect(loaded.revision).toBe(42);
    expect(loaded.size).toBe(relevanceCatalog().length);
    for (const [query] of LABELLED_QUERIES)
      expect(loaded.search({ q: query, limit: 10 }), query).toEqual(built.search({ q: query, limit: 10 }));
  });

  it("refuses bytes that are not a snapshot", () => {
    expect(() => ToolSearchIndex.open(new TextEncoder().encode("not a database"))).toThrow(RangeError);
    expect(() => ToolSearchIndex.open(new Uint8Array())).toThrow(RangeError);
  });
});

describe("a cold search instance", () => {
  it("starts from the stored snapshot and applies other instances' writes since, reading only those tools", async () => {
    const indexed = await new SearchIndexer(coldSearch().sources).run();
    expect(indexed).toMatchObject({ stored: true, tools: relevanceCatalog().length });

    // Another process writes: an upload, a PUT and a DELETE.
    await uploadOrThrow(
      registry.url,
      registry.token,
      echoToolBundle({ tool_id: "barcode-decoder", tool_search_description: "Decodes barcodes in pictures" }),
    );
    const [edited, deleted] = [relevanceCatalog()[0]!.tool_id, relevanceCatalog()[1]!.tool_id];
    expect((await write("PUT", edited, { tool_search_description: "Renders zebra stripes" })).status).toBe(200);
    expect((await write("DELETE", deleted)).status).toBe(200);

    const { entries, search } = coldSearch();
    expect(await ids(search, "barcode")).toContain("barcode-decoder");
    expect(await ids(search, "zebra")).toEqual([edited]);
    expect(await ids(search, relevanceCatalog()[1]!.tool_search_description as string)).not.toContain(deleted);
    expect(entries.scans).toBe(0);
    expect(entries.latestReads).toBe(3);
  });

  it("scans once when the log no longer covers the snapshot's revision, then follows the log", async () => {
    await new SearchIndexer(coldSearch().sources).run();
    for (let i = 0; i <= CHANGE_LOG_SLOTS; i++)
      expect((await write("PUT", "barcode-decoder", { tool_search_description: `Decodes barcodes, take ${i}` })).status).toBe(200);
    const { entries, search } = coldSearch();
    expect(await ids(search, "barcodes")).toContain("barcode-decoder");
    expect(entries.scans).toBe(1);
    expect((await write("PUT", "barcode-decoder", { tool_search_description: "Reads quokka codes" })).status).toBe(200);
    expect(await ids(search, "quokka")).toEqual(["barcode-decoder"]);
    expect(entries.scans).toBe(1);
  });

  it("ignores a snapshot ahead of the table (a table restored from a backup) and builds from the table", async () => {
    const { sources } = coldSearch();
    const future = ToolSearchIndex.build([{ tool_id: "from-the-future", tool_search_description: "Chronoflux travel" }], 1_000_000);
    await sources.snapshots.put({ revision: 1_000_000, bytes: future.serialize() }, async () => 1_000_000);
    const { entries, search } = coldSearch();
    expect(await ids(search, "chronoflux")).toEqual([]);
    expect(await ids(search, "quokka")).toEqual(["barcode-decoder"]);
    expect(entries.scans).toBe(1);
  });

  it("ignores an unreadable snapshot", async () => {
    const { sources } = coldSearch();
    const log = await registry.local.deps.entries.revision.readRevisionLog();
    await sources.snapshots.put({ revision: log.revision, bytes: new TextEncoder().encode("garbage") }, async () => log.revision);
    const { entries, search } = coldSearch();
    expect(await ids(search, "quokka")).toEqual(["barcode-decoder"]);
    expect(entries.scans).toBe(1);
  });
});

describe("the search Lambda", () => {
  type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;

  it("answers its first request from the snapshot the indexer Lambda stored, without scanning the table", async () => {
    const run = await createIndexerHandler(storageEnv(registry))();
    expect(run.stored).toBe(true);
    // A change the revision does not announce is invisible to a snapshot-loaded instance: proof it did not scan.
    const { entries } = registry.local.deps;
    const latest = (await entries.reads.getLatest("barcode-decoder"))!;
    // A newer edit (updated_at moves), as a PUT makes it, so the latest pointer follows it.
    await entries.versions.replaceVersion({
      ...latest,
      tool_search_description: "Unannounced edit about walruses",
      updated_at: new Date(Date.parse(latest.updated_at) + 1000).toISOString(),
    });

    // Revalidate on every request, so the test does not depend on how long the steps above took.
    const search = createLambdaHandler("search", { env: { ...storageEnv(registry), CACHE_REVALIDATE_MS: "0" } }) as unknown as Handler;
    const answer = async (q: string) => {
      const result = await search(apiGatewayEvent({ method: "GET", url: `/tools/search?q=${encodeURIComponent(q)}` }), {});
      expect(result.statusCode).toBe(200);
      return (JSON.parse(resultBytes(result).toString("utf8")) as { results: { tool_id: string }[] }).results.map((hit) => hit.tool_id);
    };
    expect(await answer("quokka")).toEqual(["barcode-decoder"]);
    expect(await answer("walruses")).toEqual([]);

    // Once the revision moves, the instance re-reads the tool it names.
    await entries.revision.recordChange({ toolId: "barcode-decoder", kind: "updated" });
    expect(await answer("walruses")).toEqual(["barcode-decoder"]);
  });

  it("has the indexer store nothing new while the catalog stands still", async () => {
    const indexer = createIndexerHandler(storageEnv(registry));
    await indexer();
    expect(await indexer()).toMatchObject({ stored: false });
  });
});
