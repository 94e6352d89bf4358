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

/** The stored revision counter item, read in one GetItem. */
export class RevisionLog {
  constructor(private readonly item: Record<string, unknown> | undefined) {}

  get revision(): number {
    return Number(this.item?.revision ?? 0);
  }

  /** The tool that revision `revision` changed, if the log still says so. */
  toolChangedAt(revision: number): string | undefined {
    const slot = this.item?.[changeSlot(revision)] as { revision?: unknown; tool_id?: unknown } | undefined;
    return slot?.revision === revision && typeof slot.tool_id === "string" ? slot.tool_id : undefined;
  }
}
