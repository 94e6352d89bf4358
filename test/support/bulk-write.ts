import type { LocalRegistry } from "../../functions/local/start-local-registry.js";
import { ListingIndexer } from "../../functions/listing/listing-indexer.js";
import { createS3Client } from "../../functions/storage/aws-clients.js";
import { IndexSnapshotStore } from "../../functions/storage/index-snapshot-store.js";

/**
 * After writes straight to the table that name no tool (seeded catalogues, crafted versions): the
 * revision moves without a log entry, the listing is stored as the deployed indexer's next run
 * stores it (readers bridge such a gap with a newer listing, never by reading the listing index:
 * functions/catalog/latest-catalog.ts), and the server's reader checks storage on its next read.
 */
export async function announceBulkWrite(local: LocalRegistry): Promise<void> {
  await local.deps.entries.revision.bumpRevision();
  const s3 = createS3Client(local.config);
  try {
    await new ListingIndexer({
      entries: local.deps.entries,
      listings: new IndexSnapshotStore(s3, local.config.bucketName, "listing"),
    }).run();
  } finally {
    s3.destroy();
  }
  local.deps.reader.invalidate();
}
