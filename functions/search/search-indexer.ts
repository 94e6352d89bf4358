import { SnapshotPublisher } from "../catalog/snapshot-publisher.js";
import type { CatalogRevision } from "../storage/catalog-revision.js";
import type { IndexSnapshotStore } from "../storage/index-snapshot-store.js";
import { CatalogSearch, type SearchSources } from "./catalog-search.js";

export interface IndexerRun {
  /** The catalog revision the index reflects after the run. */
  revision: number;
  tools: number;
  /** Whether a new snapshot was stored (false: the stored one was already as new). */
  stored: boolean;
  /** The uncompressed snapshot's size, when stored. */
  bytes?: number;
}

/**
 * Rebuilds the search index snapshot off the request path: brings its own index up to date (from
 * the previous snapshot plus the revision log, or a scan) and stores it when it is newer than the
 * stored one (SnapshotPublisher), naming it in the revision item. Runs as the indexer Lambda on AWS
 * (on a schedule) and in-process on `npm start` (after writes, see IndexerSchedule). Kept warm, a
 * run costs one log read and one pointer read when nothing changed.
 */
export class SearchIndexer {
  private readonly follower: CatalogSearch;
  private readonly publisher: SnapshotPublisher;

  constructor(sources: SearchSources & { entries: { revision: Pick<CatalogRevision, "recordSnapshot"> }; snapshots: IndexSnapshotStore }) {
    this.follower = new CatalogSearch(sources, 0);
    this.publisher = new SnapshotPublisher("search", sources.snapshots, sources.entries.revision);
  }

  async run(): Promise<IndexerRun> {
    const index = await this.follower.current();
    const { revision, size: tools } = index;
    return { revision, tools, ...(await this.publisher.publish(revision, this.follower.loadedFrom, () => index.serialize())) };
  }
}
