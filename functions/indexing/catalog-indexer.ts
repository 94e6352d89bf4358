import type { RegistryConfig } from "../config.js";
import { ListingIndexer, type ListingRun } from "../listing/listing-indexer.js";
import { SearchIndexer, type IndexerRun } from "../search/search-indexer.js";
import { searchSources } from "../search/search-sources.js";
import { createS3Client } from "../storage/aws-clients.js";
import type { EntryStore } from "../storage/entry-store.js";
import { IndexSnapshotStore } from "../storage/index-snapshot-store.js";

/** One run: the search index's (its fields at the top, as before the listing) and the listing's. */
export type CatalogIndexerRun = IndexerRun & { listing: ListingRun };

/**
 * The snapshots readers start from, rebuilt off the request path: the search index and the listing
 * of every latest entry (docs/search.md#the-index-as-an-artifact, docs/deployment.md#capacity).
 * The indexer Lambda runs it on a schedule; the local server after writes (IndexerSchedule).
 */
export class CatalogIndexer {
  private readonly search: SearchIndexer;
  private readonly listing: ListingIndexer;

  constructor(config: RegistryConfig, entries: EntryStore) {
    this.search = new SearchIndexer(searchSources({ config, entries }));
    this.listing = new ListingIndexer({ entries, listings: new IndexSnapshotStore(createS3Client(config), config.bucketName, "listing") });
  }

  async run(): Promise<CatalogIndexerRun> {
    const [search, listing] = await Promise.all([this.search.run(), this.listing.run()]);
    return { ...search, listing };
  }
}
