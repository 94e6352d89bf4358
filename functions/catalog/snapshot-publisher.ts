import type { CatalogRevision } from "../storage/catalog-revision.js";
import { type IndexSnapshotStore, snapshotDigest } from "../storage/index-snapshot-store.js";
import type { SnapshotKind } from "../storage/revision-log.js";

export interface Publication {
  /** Whether a new snapshot was stored (false: the stored one was already as new). */
  stored: boolean;
  /** The uncompressed snapshot's size, when stored. */
  bytes?: number;
}

/** A stored snapshot as the revision item names it. */
export interface NamedSnapshot {
  revision: number;
  sha256: string;
}

/**
 * Stores an indexer's state as the newest snapshot of its kind when it is newer than the one the
 * table's revision item names, and names it there with its sha256 (`CatalogRevision.recordSnapshot`),
 * which readers read anyway and check what they download against. The decision reads the table,
 * not S3: after the table is restored from a backup, S3 still holds snapshots of revisions the
 * table has not reached again (or reaches with other content), and they count for nothing. A
 * snapshot at the named revision is stored again only when this indexer cannot know it is the one
 * named: it neither wrote nor loaded those bytes (two indexers racing, a cut-short upload).
 */
export class SnapshotPublisher {
  /** The stored snapshot this process knows the bytes of: the one it loaded (verified), the last it wrote. */
  private readable: NamedSnapshot | undefined;

  constructor(
    private readonly kind: SnapshotKind,
    private readonly snapshots: Pick<IndexSnapshotStore, "put">,
    private readonly revisions: Pick<CatalogRevision, "recordSnapshot" | "readRevisionLog">,
  ) {}

  /** `loaded`: the stored snapshot the indexer's state started from, if it did (its digest checked out, so it is the one named). */
  async publish(revision: number, loaded: NamedSnapshot | undefined, serialize: () => Uint8Array): Promise<Publication> {
    this.readable ??= loaded;
    const log = await this.revisions.readRevisionLog();
    const named = log.snapshotRevision(this.kind);
    const digest = log.snapshotDigest(this.kind);
    if (named !== undefined && named > revision && named <= log.revision) return { stored: false };
    if (named === revision && digest !== undefined && this.readable?.revision === revision && this.readable.sha256 === digest) {
      return { stored: false };
    }
    const bytes = serialize();
    const sha256 = snapshotDigest(bytes);
    await this.snapshots.put({ revision, bytes }, async () => (await this.revisions.readRevisionLog()).revision);
    this.readable = { revision, sha256 };
    await this.revisions.recordSnapshot(this.kind, revision, sha256);
    return { stored: true, bytes: bytes.byteLength };
  }
}
