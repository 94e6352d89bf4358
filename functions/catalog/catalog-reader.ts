import type { EntryStore } from "../storage/entry-store.js";
import type { RecordedCatalogChange } from "../entry/catalog-change.js";
import { LatestCatalog, type ListingSources } from "./latest-catalog.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { resolveLatest } from "./resolve-latest.js";
import { RevisionCache } from "./revision-cache.js";
import { isStorageFull } from "../storage/storage-errors.js";

export interface CatalogReaderOptions {
  /** A read found the latest pointer of `toolId` missing or stale and repaired it: record the change. */
  onRepair?: (toolId: string) => Promise<void>;
  /** The listing snapshots the indexer stores, which every latest entry is loaded from (see LatestCatalog). */
  listings?: ListingSources["listings"];
}

/**
 * The read side of the catalog, served from a revision-checked in-process cache; every latest
 * entry (`GET /tools`, `query/by-*`, the web catalogue) is loaded from the stored listing and kept
 * up to date tool by tool (see LatestCatalog).
 */
export class CatalogReader {
  private readonly cache: RevisionCache;
  private readonly latestCatalog: LatestCatalog;
  private readonly changeListeners: (() => void)[] = [];

  constructor(
    private readonly entries: EntryStore,
    revalidateMs: number,
    private readonly options: CatalogReaderOptions = {},
  ) {
    this.cache = new RevisionCache(() => entries.revision.catalogRevision(), revalidateMs);
    this.latestCatalog = new LatestCatalog({ store: entries, listings: options.listings }, { revalidateMs, onGap: "snapshot" });
  }

  /** The highest version's entry; a missing or stale pointer met on the way is repaired. */
  latest(toolId: string): Promise<PublishedEntry | undefined> {
    return this.cache.remember(`latest\0${toolId}`, async () => {
      const resolved = await resolveLatest(this.entries, toolId);
      // On a full disk the repair's record waits for a later read (the entry is right either way).
      if (resolved.repaired)
        await this.options.onRepair?.(toolId).catch((error: unknown) => {
          if (!isStorageFull(error)) throw error;
        });
      return resolved.entry;
    });
  }

  version(toolId: string, version: string): Promise<PublishedEntry | undefined> {
    return this.cache.remember(`version\0${toolId}\0${version}`, () => this.entries.reads.getVersion(toolId, version));
  }

  /** Newest first; yanked versions only with `includeYanked`. */
  versions(toolId: string, includeYanked = false): Promise<PublishedEntry[]> {
    return this.cache.remember(`versions\0${toolId}\0${includeYanked}`, () => this.entries.reads.listVersions(toolId, { includeYanked }));
  }

  /** Sorted by tool id; the same array until the catalog changes. */
  allLatest(): Promise<readonly PublishedEntry[]> {
    return this.latestCatalog.all();
  }

  /** After this process wrote one tool: the next reads see it, re-reading only that tool for `allLatest`. */
  changed(change: RecordedCatalogChange): void {
    this.cache.invalidate();
    this.latestCatalog.hear(change);
    for (const listener of this.changeListeners) listener();
  }

  /** After a write that names no tool (e.g. a bulk import): everything is checked against storage. */
  invalidate(): void {
    this.cache.invalidate();
    this.latestCatalog.invalidate();
    for (const listener of this.changeListeners) listener();
  }

  /** Calls `listener` after each write of this process (followers with their own state: the search index). */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }
}
