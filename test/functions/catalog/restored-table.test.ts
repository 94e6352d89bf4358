// A table restored from a backup (point-in-time recovery, or an older backup) goes back to an earlier
// revision, while S3 keeps the snapshots stored after that point, under revision numbers the restored
// table then reuses with other content. The restore is simulated on the emulators: every item taken
// back to what it was, S3 left as it is, new writes after. Processes start cold, as every function does
// on AWS (a restore makes a new table, and the stack points the functions at it).
import { BatchWriteCommand, ScanCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeListing } from "../../../functions/catalog/listing-snapshot.js";
import { LatestCatalog } from "../../../functions/catalog/latest-catalog.js";
import { CatalogIndexer } from "../../../functions/indexing/catalog-indexer.js";
import { CatalogSearch } from "../../../functions/search/catalog-search.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { IndexSnapshotStore } from "../../../functions/storage/index-snapshot-store.js";
import { CountingEntryStore } from "../../support/counting-entry-store.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "../search/search-bundles.js";

let registry: TestRegistry;
let db: DynamoDBDocumentClient;
const store = () => new CountingEntryStore(createDynamoDocumentClient(registry.local.config), registry.local.config.tableName);
const snapshots = (kind: "search" | "listing") =>
  new IndexSnapshotStore(createS3Client(registry.local.config), registry.local.config.bucketName, kind);
/** A cold indexer run (the indexer Lambda after the restore). */
const runIndexer = () => new CatalogIndexer(registry.local.config, store()).run();
const publish = (toolId: string) =>
  uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({ tool_id: toolId, tool_type: "text", tool_search_description: `Herds zebras: ${toolId}` }),
  );

beforeAll(async () => {
  registry = await startTestRegistry({ searchIndexDelayMs: 3_600_000 });
  db = createDynamoDocumentClient(registry.local.config);
});
afterAll(async () => {
  db?.destroy();
  await registry?.close();
});

async function allItems(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({ TableName: registry.local.config.tableName, ExclusiveStartKey: start, ConsistentRead: true }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Takes the table back to `items`, as a restore does: everything written since is gone, everything before is back. */
async function restore(items: readonly Record<string, unknown>[]): Promise<void> {
  const { tableName } = registry.local.config;
  const deletes = (await allItems()).map((item) => ({ DeleteRequest: { Key: { tool_id: item.tool_id, version: item.version } } }));
  // Deletes first, then puts: a key in both ends restored (one batch may not name a key twice).
  for (const requests of [deletes, items.map((item) => ({ PutRequest: { Item: item } }))]) {
    for (let start = 0; start < requests.length; start += 25) {
      let batch: unknown[] = requests.slice(start, start + 25);
      while (batch.length > 0) {
        const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: batch as never } }));
        batch = result.UnprocessedItems?.[tableName] ?? [];
      }
    }
  }
  registry.local.deps.reader.invalidate();
}

const readerIds = async () => {
  const counting = store();
  const catalog = new LatestCatalog({ store: counting, listings: snapshots("listing") }, { revalidateMs: 0, onGap: "snapshot" });
  return { ids: (await catalog.all()).map((entry) => entry.tool_id), scans: counting.scans };
};
const searchIds = async (q: string) => {
  const counting = store();
  const search = new CatalogSearch({ entries: counting, snapshots: snapshots("search") }, 0);
  return { ids: (await search.search({ q, limit: 10 })).map((hit) => hit.tool_id), scans: counting.scans };
};

describe("a table restored to an earlier revision", () => {
  it("serves what the table says: snapshots of the lost history are replaced, never served, and do not push out the new ones", async () => {
    await publish("kept-one");
    await publish("kept-two");
    await runIndexer();
    const backup = await allItems();
    const backupRevision = (await registry.local.deps.entries.revision.readRevisionLog()).revision;

    // The history the restore loses: two more tools, each indexed, so S3 holds its two newest snapshots.
    await publish("lost-one");
    await runIndexer();
    await publish("lost-two");
    await runIndexer();
    const lostRevision = (await registry.local.deps.entries.revision.readRevisionLog()).revision;

    await restore(backup);
    // The new history reuses the lost one's revision numbers with other tools.
    await publish("new-one");
    expect((await registry.local.deps.entries.revision.readRevisionLog()).revision).toBe(backupRevision + 1);
    expect(backupRevision + 1).toBeLessThan(lostRevision);

    // Before the indexer's next run: readers start from the snapshot the restored table names (the backup's) plus its log.
    expect((await readerIds()).ids).toEqual(["kept-one", "kept-two", "new-one"]);

    const run = await runIndexer();
    expect(run.listing).toMatchObject({ stored: true, revision: backupRevision + 1 });
    expect(run.stored).toBe(true);
    const log = await registry.local.deps.entries.revision.readRevisionLog();
    expect(log.snapshotRevision("listing")).toBe(backupRevision + 1);
    // The lost history's snapshot above the table's revision went, so it cannot push the current one out.
    expect(await snapshots("listing").get(lostRevision)).toBeUndefined();
    expect(await snapshots("search").get(lostRevision)).toBeUndefined();

    const listed = await readerIds();
    expect(listed).toEqual({ ids: ["kept-one", "kept-two", "new-one"], scans: 0 });
    const found = await searchIds("zebras");
    expect(found.ids.sort()).toEqual(["kept-one", "kept-two", "new-one"]);
    expect(found.scans).toBe(0);

    // A cold indexer with nothing new stores nothing (it loaded what the table names).
    expect(await runIndexer()).toMatchObject({ stored: false, listing: { stored: false } });
  });

  it("never serves bytes the table does not name under its revision, such as another history's snapshot", async () => {
    const log = await registry.local.deps.entries.revision.readRevisionLog();
    const named = log.snapshotRevision("listing")!;
    const stranger = (await readerIds()).ids.map((toolId) => ({ tool_id: toolId }) as never);
    // Another history's listing at the very revision the table names (S3 written, the revision item untouched).
    await snapshots("listing").put(
      { revision: named, bytes: encodeListing({ revision: named, entries: [...stranger, { tool_id: "zz-lost-history" } as never] }) },
      async () => log.revision,
    );
    const listed = await readerIds();
    expect(listed.ids).not.toContain("zz-lost-history");
    expect(listed.ids).toEqual(["kept-one", "kept-two", "new-one"]);
    // It reads the table instead (the one read a listing that cannot be trusted costs).
    expect(listed.scans).toBe(1);
    // The next indexer run stores the listing the table names again.
    expect((await runIndexer()).listing.stored).toBe(true);
    expect(await readerIds()).toEqual({ ids: ["kept-one", "kept-two", "new-one"], scans: 0 });
  });
});
