import type { EntryStore } from "../storage/entry-store.js";
import type { RevisionLog } from "../storage/revision-log.js";
import type { RecordedCatalogChange } from "../entry/catalog-change.js";
import type { PublishedEntry } from "../entry/published-entry.js";

/** Past this many changed tools, one scan is cheaper than reading them one by one. */
const MAX_TOOLS_READ_ONE_BY_ONE = 100;

/**
 * Every tool's latest entry (sorted by tool id), held in memory and brought up to date tool by
 * tool. It knows the catalog revision it reflects; to move on, it re-reads only the tools changed
 * since, named by this process's own writes (`hear`) or by the revision log in storage (writes of
 * other processes, checked at most once per `revalidateMs`). Only when neither names every
 * revision in between (the first read, a bulk write, a lost log slot, too many changes) does it
 * scan all latest entries. An unchanged catalog hands back the same array. (The search index
 * follows the revision log itself: functions/search/catalog-search.ts.)
 */
export class LatestCatalog {
  private entries: readonly PublishedEntry[] | undefined;
  private revision = 0;
  /** Tools changed by this process's writes and not applied yet, by the revision each produced. */
  private readonly heard = new Map<number, string>();
  private storageCheckDue = false;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: Promise<readonly PublishedEntry[]> | undefined;

  constructor(
    private readonly store: EntryStore,
    private readonly revalidateMs: number,
  ) {}

  async all(): Promise<readonly PublishedEntry[]> {
    if (this.entries === undefined || this.heard.size > 0 || this.storageCheckDue || this.revalidateMs === 0) {
      return this.refresh();
    }
    // Only the timer is due: readers do not wait for the check (stale by one check's latency at most).
    if (this.timerDue()) this.refresh().catch(() => undefined);
    return this.entries;
  }

  /** A write of this process, once stored: the next read re-reads that tool only. */
  hear(change: RecordedCatalogChange): void {
    if (change.revision <= this.revision) return;
    this.heard.set(change.revision, change.toolId);
    // Nobody has read for a long while: forget the backlog, the next read scans.
    if (this.heard.size > MAX_TOOLS_READ_ONE_BY_ONE) this.forget();
  }

  /** Something changed that no log names (e.g. a bulk write): the next read checks storage. */
  invalidate(): void {
    this.storageCheckDue = true;
  }

  /** Refreshes run one at a time; callers that arrive before one starts share it. */
  private refresh(): Promise<readonly PublishedEntry[]> {
    this.pending ??= this.queue.then(() => {
      this.pending = undefined;
      return this.catchUp();
    });
    this.queue = this.pending.catch(() => undefined);
    return this.pending;
  }

  private async catchUp(): Promise<readonly PublishedEntry[]> {
    const base = this.entries;
    if (base === undefined) return this.scan();
    let log: RevisionLog | undefined;
    const heardOutOfOrder = this.heard.size > 0 && !this.heard.has(this.revision + 1);
    if (this.storageCheckDue || this.revalidateMs === 0 || this.timerDue() || heardOutOfOrder) {
      this.storageCheckDue = false;
      log = await this.store.readRevisionLog();
      this.checkedAt = performance.now();
      if (log.revision < this.revision) return this.scan();
    }
    const changed = new Set<string>();
    let revision = this.revision;
    const newest = Math.max(log?.revision ?? 0, ...this.heard.keys());
    for (let next = revision + 1; next <= newest; next++) {
      const toolId = this.heard.get(next) ?? log?.toolChangedAt(next);
      if (toolId === undefined) {
        if (log !== undefined && next <= log.revision) return this.scan();
        break; // announced out of order; the rest is applied on a later read
      }
      changed.add(toolId);
      revision = next;
    }
    if (changed.size > MAX_TOOLS_READ_ONE_BY_ONE) return this.scan();
    const fetched = await Promise.all([...changed].map(async (toolId) => [toolId, await this.store.getLatest(toolId)] as const));
    // The backlog overflowed meanwhile (see `hear`): what it named is lost, so scan.
    if (this.entries === undefined) return this.scan();
    const entries = fetched.length > 0 ? withLatest(base, fetched) : base;
    this.entries = entries;
    this.advanceTo(revision);
    return entries;
  }

  private async scan(): Promise<readonly PublishedEntry[]> {
    // The revision first: anything written during the scan is caught up on a later read.
    const log = await this.store.readRevisionLog();
    this.checkedAt = performance.now();
    this.storageCheckDue = false;
    const entries = await this.store.listAllLatest();
    this.entries = entries;
    this.advanceTo(log.revision);
    return entries;
  }

  private advanceTo(revision: number): void {
    this.revision = revision;
    for (const heardRevision of this.heard.keys()) if (heardRevision <= revision) this.heard.delete(heardRevision);
  }

  private forget(): void {
    this.entries = undefined;
    this.heard.clear();
  }

  private timerDue(): boolean {
    return performance.now() - this.checkedAt >= this.revalidateMs;
  }
}

/** A new sorted array with each tool's entry replaced, inserted, or removed (undefined). */
function withLatest(
  entries: readonly PublishedEntry[],
  latest: readonly (readonly [string, PublishedEntry | undefined])[],
): PublishedEntry[] {
  const next = [...entries];
  for (const [toolId, entry] of latest) {
    const at = sortedIndex(next, toolId);
    const present = next[at]?.tool_id === toolId;
    if (entry !== undefined) next.splice(at, present ? 1 : 0, entry);
    else if (present) next.splice(at, 1);
  }
  return next;
}

/** Where `toolId` is, or would go, in entries sorted by tool id (as the listing index sorts them). */
function sortedIndex(entries: readonly PublishedEntry[], toolId: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]!.tool_id < toolId) low = middle + 1;
    else high = middle;
  }
  return low;
}
