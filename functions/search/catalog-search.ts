import { rm } from "node:fs/promises";
import type { NamedSnapshot } from "../catalog/snapshot-publisher.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import type { DownloadedSnapshot } from "../storage/index-snapshot-store.js";
import type { RevisionLog } from "../storage/revision-log.js";
import type { HybridSearch } from "./hybrid-search.js";
import { snapshotFile } from "./snapshot-files.js";
import type { SearchQuery } from "./search-query.js";
import { ToolSearchIndex, type SearchHit } from "./tool-search-index.js";

/** What the search index is kept from: the table (entries and revision log) and, when there is one, the snapshot store. */
export interface SearchSources {
  entries: {
    revision: { readRevisionLog(): Promise<RevisionLog> };
    reads: {
      getLatest(toolId: string): Promise<PublishedEntry | undefined>;
      forEachLatestPage(onPage: (entries: PublishedEntry[]) => void): Promise<void>;
    };
  };
  /** The stored snapshots, by the revision the revision item names (`RevisionLog.snapshotRevision`). */
  snapshots?: { download(revision: number, file: string): Promise<DownloadedSnapshot | undefined> };
}

/** Past this many changed tools, reading them one by one costs more than a snapshot or a scan. */
const MAX_TOOLS_READ_ONE_BY_ONE = 100;

/**
 * The search index of a process (a warm Lambda container, the local server, the indexer), kept
 * in step with the catalog revision. A cold instance opens the newest snapshot and applies the
 * revisions logged since, re-reading only the tools they name; it scans the table only when no
 * snapshot and no log covers the gap (a first start, a bulk write). Afterwards it reads the
 * revision log at most once per `revalidateMs` (readers do not wait for that check once warm),
 * and at once after a write of this process (`changed`).
 */
export class CatalogSearch {
  private index: ToolSearchIndex | undefined;
  private checkDue = false;
  private checkedAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<ToolSearchIndex> | undefined;
  /** The stored snapshot this index was last loaded from (the indexer need not store it again). */
  private loadedSnapshot: NamedSnapshot | undefined;

  constructor(
    private readonly sources: SearchSources,
    private readonly revalidateMs: number,
    /** Fuses vector results in when the registry embeds tools (docs/search.md, "Hybrid retrieval"). */
    private readonly hybrid?: HybridSearch,
  ) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    const index = await this.current();
    return this.hybrid === undefined ? index.search(query) : this.hybrid.search(index, query);
  }

  /** The index, up to date as `revalidateMs` allows. */
  async current(): Promise<ToolSearchIndex> {
    const index = this.index;
    if (index === undefined || this.checkDue || this.revalidateMs === 0) return this.refresh();
    if (performance.now() - this.checkedAt >= this.revalidateMs) this.refresh().catch(() => undefined);
    return index;
  }

  /** The stored snapshot the index was last loaded from, if it was (it opened, so it is readable). */
  get loadedFrom(): NamedSnapshot | undefined {
    return this.loadedSnapshot;
  }

  /** A write of this process was recorded: the next search reads the revision log first. */
  changed(): void {
    this.checkDue = true;
  }

  /** One refresh at a time; callers that arrive meanwhile share it. */
  private refresh(): Promise<ToolSearchIndex> {
    this.refreshing ??= this.catchUp().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async catchUp(): Promise<ToolSearchIndex> {
    this.checkDue = false;
    const log = await this.sources.entries.revision.readRevisionLog();
    this.checkedAt = performance.now();
    let index = this.index ?? (await this.fromSnapshot(log));
    if (index !== undefined && !(await this.applyLog(index, log))) {
      // The log no longer names every revision since this index: a newer snapshot may.
      const newer = await this.fromSnapshot(log, index.revision);
      index = newer !== undefined && (await this.applyLog(newer, log)) ? newer : undefined;
    }
    index ??= await this.scan();
    this.replace(index);
    return index;
  }

  /**
   * The snapshot the revision item names, when it is newer than `after` and not ahead of the table
   * (a reset table), downloaded into a file of this process and opened in place. None named, none
   * asked for: S3 is not asked before the indexer's first store.
   */
  private async fromSnapshot(log: RevisionLog, after = -1): Promise<ToolSearchIndex | undefined> {
    const revision = log.snapshotRevision("search");
    if (revision === undefined || revision <= after || revision > log.revision) return undefined;
    const snapshot = await this.sources.snapshots?.download(revision, snapshotFile()).catch((error: unknown) => {
      console.error("[search] could not read the index snapshot; building from the table:", error);
      return undefined;
    });
    if (snapshot === undefined) return undefined;
    // Bytes other than those the revision item names are another history's index under the same revision.
    if (snapshot.sha256 !== log.snapshotDigest("search")) {
      console.error(`[search] the index stored at revision ${revision} is not the one the table names; building from the table`);
      await rm(snapshot.file, { force: true });
      return undefined;
    }
    try {
      const index = ToolSearchIndex.openFile(snapshot.file);
      this.loadedSnapshot = { revision: snapshot.revision, sha256: snapshot.sha256 };
      return index;
    } catch (error) {
      console.error("[search] ignoring an unreadable index snapshot:", error);
      return undefined;
    }
  }

  /** Applies the revisions after the index's; false when the log cannot name them all. */
  private async applyLog(index: ToolSearchIndex, log: RevisionLog): Promise<boolean> {
    if (log.revision < index.revision) return false;
    const changed = new Set<string>();
    for (let revision = index.revision + 1; revision <= log.revision; revision++) {
      const toolId = log.toolChangedAt(revision);
      if (toolId === undefined) return false;
      changed.add(toolId);
    }
    if (changed.size > MAX_TOOLS_READ_ONE_BY_ONE) return false;
    // Read after the log: a tool changed again meanwhile is read in its newer state, which the
    // next revision re-applies harmlessly.
    const latest = await Promise.all(
      [...changed].map(async (toolId) => [toolId, await this.sources.entries.reads.getLatest(toolId)] as const),
    );
    index.batch(() => {
      for (const [toolId, entry] of latest) {
        if (entry === undefined) index.remove(toolId);
        else index.upsert(entry);
      }
      index.revision = log.revision;
    });
    return true;
  }

  /** A new index of every latest entry, each page of the table's read indexed as it arrives (the reads run in parallel). */
  private async scan(): Promise<ToolSearchIndex> {
    // The revision first: anything written during the scan is applied from the log later.
    const { revision } = await this.sources.entries.revision.readRevisionLog();
    const builder = ToolSearchIndex.builder();
    try {
      await this.sources.entries.reads.forEachLatestPage((entries) => builder.add(entries));
    } catch (error) {
      builder.abandon();
      throw error;
    }
    return builder.finish(revision);
  }

  private replace(index: ToolSearchIndex): void {
    const previous = this.index;
    this.index = index;
    // Searches that already hold the previous index finish first (they run synchronously).
    if (previous !== undefined && previous !== index) setImmediate(() => previous.close());
  }
}
