import type { RecordedCatalogChange } from "../entry/catalog-change.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { decodeListing } from "./listing-snapshot.js";
import type { CatalogRevision } from "../storage/catalog-revision.js";
import type { EntryReads } from "../storage/entry-reads.js";
import type { ReadSnapshot } from "../storage/index-snapshot-store.js";
import type { RevisionLog } from "../storage/revision-log.js";
import type { NamedSnapshot } from "./snapshot-publisher.js";

/** Past this many changed tools, one load is cheaper than reading them one by one. */
const MAX_TOOLS_READ_ONE_BY_ONE = 100;

/** Where the catalogue comes from: the table (revision log, single tools, the listing index) and the stored listings. */
export interface ListingSources {
  store: { reads: Pick<EntryReads, "getLatest" | "listAllLatest">; revision: Pick<CatalogRevision, "readRevisionLog"> };
  /** The listing snapshots the indexer stores (absent: every load reads the listing index). */
  listings?: { get(revision: number): Promise<ReadSnapshot | undefined> };
}

export interface LatestCatalogOptions {
  /** How often (at most) the revision log is read for other processes' writes; 0: before every read. */
  revalidateMs: number;
  /**
   * When neither a listing snapshot nor the log can bring the catalogue up to date: `snapshot`
   * (readers) serves the newest listing plus this process's own writes until a newer listing is
   * stored (the indexer's next run), `scan` (the indexer, whose listing must be complete) reads the
   * listing index.
   */
  onGap: "snapshot" | "scan";
}

/**
 * Every tool's latest entry (sorted by tool id), held in memory and brought up to date tool by
 * tool. It starts from the newest listing snapshot the indexer stored (named by the revision item,
 * so no request and no cold start reads the listing index's one partition), then re-reads only the
 * tools changed since, named by this process's own writes (`hear`) or by the revision log in
 * storage (writes of other processes, checked at most once per `revalidateMs`). When the log no
 * longer names every revision in between (a burst of more than 64 writes between two checks, a
 * bulk write), it takes the newest listing again. Only with no listing stored at all (a new stack
 * before the indexer's first run) does it read every latest entry from the table. An unchanged
 * catalog hands back the same array. (The search index follows the revision log itself:
 * functions/search/catalog-search.ts.) docs/deployment.md#listing-without-a-hot-partition.
 */
export class LatestCatalog {
  private entries: readonly PublishedEntry[] | undefined;
  private revision = 0;
  /**
   * The entries are a listing snapshot (at `revision`) that the log could not bring up to date,
   * plus this process's own writes: the next check looks for a newer listing instead of the log.
   */
  private behind = false;
  /** Tools changed by this process's writes and not applied yet, by the revision each produced. */
  private readonly heard = new Map<number, string>();
  /** The stored listing last loaded (its digest was the one named, and it decoded). */
  private loaded: NamedSnapshot | undefined;
  private storageCheckDue = false;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: Promise<readonly PublishedEntry[]> | undefined;

  constructor(
    private readonly sources: ListingSources,
    private readonly options: LatestCatalogOptions,
  ) {}

  async all(): Promise<readonly PublishedEntry[]> {
    if (this.entries === undefined || this.heard.size > 0 || this.storageCheckDue || this.options.revalidateMs === 0) {
      return this.refresh();
    }
    // Only the timer is due: readers do not wait for the check (stale by one check's latency at most).
    if (this.timerDue()) this.refresh().catch(() => undefined);
    return this.entries;
  }

  /** The catalog revision the entries reflect (while `behind`, the listing's, plus own writes since). */
  get reflectedRevision(): number {
    return this.revision;
  }

  /** The stored listing the entries were last loaded from, if they were. */
  get loadedListing(): NamedSnapshot | undefined {
    return this.loaded;
  }

  /** A write of this process, once stored: the next read re-reads that tool only. */
  hear(change: RecordedCatalogChange): void {
    if (change.revision <= this.revision) return;
    this.heard.set(change.revision, change.toolId);
    // Nobody has read for a long while: forget the backlog, the next read loads afresh.
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
    if (this.entries === undefined) return this.load(await this.readLog());
    let log: RevisionLog | undefined;
    const heardOutOfOrder = this.heard.size > 0 && !this.heard.has(this.revision + 1);
    if (this.behind || this.storageCheckDue || this.options.revalidateMs === 0 || this.timerDue() || heardOutOfOrder) {
      log = await this.readLog();
      if (log.revision < this.revision) return this.load(log);
      if (this.behind) return this.whileBehind(log);
    }
    if (!(await this.applyChanges(log))) return this.load(log ?? (await this.readLog()));
    return this.entries!;
  }

  /**
   * Applies the tools changed after `revision` (from what this process heard and `log`); false
   * when they cannot all be named, or are too many to read one by one.
   */
  private async applyChanges(log: RevisionLog | undefined): Promise<boolean> {
    const changed = new Set<string>();
    let revision = this.revision;
    const newest = Math.max(log?.revision ?? 0, ...this.heard.keys());
    for (let next = revision + 1; next <= newest; next++) {
      const toolId = this.heard.get(next) ?? log?.toolChangedAt(next);
      if (toolId === undefined) {
        if (log !== undefined && next <= log.revision) return false;
        break; // announced out of order; the rest is applied on a later read
      }
      changed.add(toolId);
      revision = next;
    }
    if (changed.size > MAX_TOOLS_READ_ONE_BY_ONE) return false;
    const base = this.entries!;
    const fetched = await this.readTools(changed);
    // The backlog overflowed meanwhile (see `hear`): what it named is lost.
    if (this.entries === undefined) return false;
    this.entries = fetched.length > 0 ? withLatest(base, fetched) : base;
    this.advanceTo(revision);
    return true;
  }

  /**
   * A catalogue from the newest stored listing plus the log since, else (gap) as `onGap` says;
   * from the listing index only when no listing is stored or readable.
   */
  private async load(log: RevisionLog): Promise<readonly PublishedEntry[]> {
    const listing = await this.newestListing(log);
    if (listing === undefined) return this.scan(log);
    this.loaded = { revision: listing.revision, sha256: listing.sha256 };
    this.entries = listing.entries;
    this.revision = listing.revision;
    this.behind = false;
    if (await this.applyChanges(log)) return this.entries;
    if (this.options.onGap === "scan") return this.scan(log);
    this.behind = true;
    await this.applyHeard();
    return this.entries;
  }

  /** Behind the log: a newer listing replaces the entries when there is one; own writes apply either way. */
  private async whileBehind(log: RevisionLog): Promise<readonly PublishedEntry[]> {
    if ((log.snapshotRevision("listing") ?? -1) > this.revision) return this.load(log);
    await this.applyHeard();
    return this.entries!;
  }

  /** This process's own writes, re-read whatever the revisions between (they are this process's to show). */
  private async applyHeard(): Promise<void> {
    if (this.heard.size === 0) return;
    const tools = new Set(this.heard.values());
    this.heard.clear();
    const fetched = await this.readTools(tools);
    if (this.entries !== undefined) this.entries = withLatest(this.entries, fetched);
  }

  private async newestListing(
    log: RevisionLog,
  ): Promise<{ revision: number; sha256: string; entries: readonly PublishedEntry[] } | undefined> {
    const revision = log.snapshotRevision("listing");
    // A listing ahead of the table is of another table (one restored from a backup): not this catalogue.
    if (revision === undefined || revision > log.revision || this.sources.listings === undefined) return undefined;
    try {
      const stored = await this.sources.listings.get(revision);
      if (stored === undefined) return undefined;
      // Bytes other than those the revision item names are another history's listing under the same revision.
      if (stored.sha256 !== log.snapshotDigest("listing")) {
        console.error(`[catalog] the listing stored at revision ${revision} is not the one the table names; reading the listing index`);
        return undefined;
      }
      return { ...decodeListing(stored.bytes), sha256: stored.sha256 };
    } catch (error) {
      console.error("[catalog] ignoring an unreadable listing snapshot; reading the listing index:", error);
      return undefined;
    }
  }

  private async scan(log: RevisionLog): Promise<readonly PublishedEntry[]> {
    // The revision first: anything written during the scan is caught up on a later read.
    const entries = await this.sources.store.reads.listAllLatest();
    this.entries = entries;
    this.behind = false;
    this.advanceTo(log.revision);
    return entries;
  }

  private async readLog(): Promise<RevisionLog> {
    this.storageCheckDue = false;
    const log = await this.sources.store.revision.readRevisionLog();
    this.checkedAt = performance.now();
    return log;
  }

  private readTools(tools: Iterable<string>): Promise<(readonly [string, PublishedEntry | undefined])[]> {
    return Promise.all([...tools].map(async (toolId) => [toolId, await this.sources.store.reads.getLatest(toolId)] as const));
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
    return performance.now() - this.checkedAt >= this.options.revalidateMs;
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
