import type { CatalogRevision } from "../storage/catalog-revision.js";
import type { IndexSnapshotStore } from "../storage/index-snapshot-store.js";
import type { SnapshotKind } from "../storage/revision-log.js";

export interface Publication {
  /** Whether a new snapshot was stored (false: the stored one was already as new). */
  stored: boolean;
  /** The uncompressed snapshot's size, when stored. */
  bytes?: number;
}

/**
 * Stores an indexer's state as the newest snapshot of its kind when it is newer than the stored
 * one, and names it in the revision item (`CatalogRevision.recordSnapshot`), which readers read anyway.
 * A snapshot at the same revision is stored again only when this indexer cannot know it is
 * readable: it neither wrote nor loaded it (two indexers racing, a cut-short upload).
 */
export class SnapshotPublisher {
  /** The stored snapshots this process knows to be readable: the one it loaded, the last it wrote. */
  private readable: number | undefined;
  private recordedOnce = false;

  constructor(
    private readonly kind: SnapshotKind,
    private readonly snapshots: Pick<IndexSnapshotStore, "latestRevision" | "put">,
    private readonly revision: Pick<CatalogRevision, "recordSnapshot">,
  ) {}

  /** `loaded`: the stored snapshot the indexer's state started from, if it did (it opened, so it is readable). */
  async publish(revision: number, loaded: number | undefined, serialize: () => Uint8Array): Promise<Publication> {
    this.readable ??= loaded;
    const stored = await this.snapshots.latestRevision();
    if (stored !== undefined && (stored > revision || (stored === revision && stored === this.readable))) {
      // Once per process: a snapshot stored before the revision item named snapshots gets named.
      if (!this.recordedOnce && stored === this.readable) await this.revision.recordSnapshot(this.kind, stored);
      this.recordedOnce = true;
      return { stored: false };
    }
    const bytes = serialize();
    await this.snapshots.put({ revision, bytes });
    this.readable = revision;
    await this.revision.recordSnapshot(this.kind, revision);
    this.recordedOnce = true;
    return { stored: true, bytes: bytes.byteLength };
  }
}
