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
 * stored one. Runs as the indexer Lambda on AWS (on a schedule) and in-process on `npm start`
 * (after writes, see IndexerSchedule). Kept warm, a run costs one log read when nothing changed.
 */
export class SearchIndexer {
  private readonly follower: CatalogSearch;
  /** The revision this indexer last stored: a pointer it did not write may name an unreadable file. */
  private storedRevision: number | undefined;

  constructor(private readonly sources: SearchSources & { snapshots: IndexSnapshotStore }) {
    this.follower = new CatalogSearch(sources, 0);
  }

  async run(): Promise<IndexerRun> {
    const index = await this.follower.current();
    const { revision, size: tools } = index;
    const stored = await this.sources.snapshots.latestRevision();
    if (stored !== undefined && (stored > revision || stored === this.storedRevision)) return { revision, tools, stored: false };
    const bytes = index.serialize();
    await this.sources.snapshots.put({ revision, bytes });
    this.storedRevision = revision;
    return { revision, tools, stored: true, bytes: bytes.byteLength };
  }
}
