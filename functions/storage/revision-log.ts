/**
 * The revision counter item also remembers which tool the last few revisions changed, so another
 * process (a warm Lambda) can catch up by re-reading those tools instead of every latest entry.
 * Revision `r` is logged in slot `r % CHANGE_LOG_SLOTS` as `{ revision, tool_id }`. A writer that
 * knows the current revision bumps it and writes the slot in one conditional update; otherwise the
 * slot is written right after the bump, not atomically with it: a slot that is missing,
 * overwritten or late simply names another revision, and the reader then scans everything.
 */
export const CHANGE_LOG_SLOTS = 64;

export function changeSlot(revision: number): string {
  return `change_${revision % CHANGE_LOG_SLOTS}`;
}

/**
 * The artifacts the indexer stores in S3 beside the archives, each at a catalog revision: the
 * search index and the listing (every latest entry). The revision item names the newest of each
 * (`snapshot_<kind>`), so a reader learns it from the read it makes anyway, and asks S3 for no
 * snapshot before the first exists (S3 would answer 403 to a role that may not list the bucket).
 */
export type SnapshotKind = "search" | "listing";

export function snapshotAttribute(kind: SnapshotKind): string {
  return `snapshot_${kind}`;
}

/**
 * The sha256 of the snapshot's bytes that the revision item names beside its revision: readers
 * serve a downloaded snapshot only when it matches, so S3 objects of another history of the table
 * (one restored from a backup reuses revision numbers with other content) are never served.
 */
export function snapshotDigestAttribute(kind: SnapshotKind): string {
  return `snapshot_${kind}_sha256`;
}

/** The stored revision counter item, read in one GetItem. */
export class RevisionLog {
  constructor(private readonly item: Record<string, unknown> | undefined) {}

  get revision(): number {
    return Number(this.item?.revision ?? 0);
  }

  /** The catalog revision of the newest stored snapshot of that kind, if any was recorded. */
  snapshotRevision(kind: SnapshotKind): number | undefined {
    const revision = this.item?.[snapshotAttribute(kind)];
    return typeof revision === "number" && Number.isSafeInteger(revision) ? revision : undefined;
  }

  /** The sha256 of the snapshot of that kind the revision item names, if it names one with its digest. */
  snapshotDigest(kind: SnapshotKind): string | undefined {
    const digest = this.item?.[snapshotDigestAttribute(kind)];
    return typeof digest === "string" ? digest : undefined;
  }

  /** The tool that revision `revision` changed, if the log still says so. */
  toolChangedAt(revision: number): string | undefined {
    const slot = this.item?.[changeSlot(revision)] as { revision?: unknown; tool_id?: unknown } | undefined;
    return slot?.revision === revision && typeof slot.tool_id === "string" ? slot.tool_id : undefined;
  }
}
