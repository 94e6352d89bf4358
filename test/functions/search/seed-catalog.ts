/**
 * Puts many tools into a registry's table in bulk, for catalogues too large to upload one bundle at
 * a time (the relevance set, the 10,000-tool benchmark). Each tool gets what a publish writes:
 * a version item and the latest pointer in `EntryStore`'s layout, with the entry built by the
 * registry's own `entryFromSpec`; then the bulk write is announced (announceBulkWrite). No
 * archive is stored: these entries are for searching and listing, not for running.
 * (Uploads themselves are exercised by search-endpoint.test.ts.)
 */
import { BatchWriteCommand } from "@aws-sdk/lib-dynamodb";
import { entryFromSpec } from "../../../functions/entry/tool-entry.js";
import type { LocalRegistry } from "../../../functions/local/start-local-registry.js";
import { createDynamoDocumentClient } from "../../../functions/storage/aws-clients.js";
import { LATEST_CATALOG, LATEST_SORT_KEY } from "../../../functions/storage/table-schema.js";
import { announceBulkWrite } from "../../support/bulk-write.js";

const BATCH_ITEMS = 25;
const PARALLEL_BATCHES = 8;

export async function seedCatalog(
  local: LocalRegistry,
  specs: ({ tool_id: string } & Record<string, unknown>)[],
  /** The archive each tool's entry names (none is stored); one for all by default. */
  archiveOf: (toolId: string) => string = () => "0".repeat(64),
): Promise<void> {
  const db = createDynamoDocumentClient(local.config);
  const now = new Date().toISOString();
  const items = specs.flatMap((spec) => {
    const { tool_source_code_link: _perRequest, ...fields } = entryFromSpec(spec);
    const version = "1.0.0";
    const sha256 = archiveOf(spec.tool_id);
    const entry = {
      ...fields,
      tool_id: spec.tool_id,
      version,
      tool_archive_sha256: sha256,
      tool_archive_integrity: "sha512-",
      tool_archive_size: 0,
      published_at: now,
      updated_at: now,
    };
    return [
      { tool_id: spec.tool_id, version, entry, tool_archive_sha256: sha256 },
      { tool_id: spec.tool_id, version: LATEST_SORT_KEY, catalog: LATEST_CATALOG, latest_version: version, entry },
    ];
  });
  const batches: (typeof items)[] = [];
  for (let start = 0; start < items.length; start += BATCH_ITEMS) batches.push(items.slice(start, start + BATCH_ITEMS));
  await Promise.all(
    Array.from({ length: PARALLEL_BATCHES }, async () => {
      for (let batch = batches.pop(); batch !== undefined; batch = batches.pop()) {
        let requests = batch.map((item) => ({ PutRequest: { Item: item } }));
        while (requests.length > 0) {
          const result = await db.send(new BatchWriteCommand({ RequestItems: { [local.config.tableName]: requests } }));
          requests = (result.UnprocessedItems?.[local.config.tableName] ?? []) as typeof requests;
        }
      }
    }),
  );
  db.destroy();
  // A bulk write names no tool: search followers scan again, listings load the new listing.
  await announceBulkWrite(local);
}
