import type { CatalogDeps } from "../catalog-deps.js";
import { createS3Client } from "../storage/aws-clients.js";
import type { EntryStore } from "../storage/entry-store.js";
import { IndexSnapshotStore } from "../storage/index-snapshot-store.js";
import type { SearchSources } from "./catalog-search.js";

/** The table and the snapshot store of this registry's storage, for the search index and its indexer. */
export function searchSources(
  deps: Pick<CatalogDeps, "config" | "entries">,
): SearchSources & { entries: EntryStore; snapshots: IndexSnapshotStore } {
  return { entries: deps.entries, snapshots: new IndexSnapshotStore(createS3Client(deps.config), deps.config.bucketName) };
}
