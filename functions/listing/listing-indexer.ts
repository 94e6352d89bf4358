import { LatestCatalog } from "../catalog/latest-catalog.js";
import { SnapshotPublisher } from "../catalog/snapshot-publisher.js";
import type { EntryStore } from "../storage/entry-store.js";
import type { IndexSnapshotStore } from "../storage/index-snapshot-store.js";
import { encodeListing } from "../catalog/listing-snapshot.js";

export interface ListingRun {
  /** The catalog revision the listing reflects after the run. */
  revision: number;
  tools: number;
  /** Whether a new listing was stored (false: the stored one was already as new). */
  stored: boolean;
  /** The uncompressed listing's size, when stored. */
  bytes?: number;
}

/**
 * Stores every latest entry as the listing snapshot that readers load instead of reading the
 * listing index (catalog/latest-catalog.ts), beside the search index's, at the same moments: the
 * indexer Lambda's schedule on AWS, the local server's IndexerSchedule. Its own catalogue starts
 * from the stored listing and follows the log; when the log cannot bridge (more than 64 writes
 * since its last run), it reads the listing index once, the one process that ever does.
 */
export class ListingIndexer {
  private readonly follower: LatestCatalog;
  private readonly publisher: SnapshotPublisher;

  constructor(sources: { entries: EntryStore; listings: IndexSnapshotStore }) {
    this.follower = new LatestCatalog({ store: sources.entries, listings: sources.listings }, { revalidateMs: 0, onGap: "scan" });
    this.publisher = new SnapshotPublisher("listing", sources.listings, sources.entries.revision);
  }

  async run(): Promise<ListingRun> {
    const entries = await this.follower.all();
    const revision = this.follower.reflectedRevision;
    const publication = await this.publisher.publish(revision, this.follower.loadedListing, () => encodeListing({ revision, entries }));
    return { revision, tools: entries.length, ...publication };
  }
}
