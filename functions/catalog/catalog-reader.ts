import type { EntryStore, LatestFilter, LatestPage } from "../storage/entry-store.js";
import type { PublishedEntry } from "./published-entry.js";
import { RevisionCache } from "./revision-cache.js";

/** The read side of the catalog, served from a revision-checked in-process cache. */
export class CatalogReader {
  private readonly cache: RevisionCache;

  constructor(
    private readonly entries: EntryStore,
    revalidateMs: number,
  ) {
    this.cache = new RevisionCache(() => entries.catalogRevision(), revalidateMs);
  }

  latest(toolId: string): Promise<PublishedEntry | undefined> {
    return this.cache.remember(`latest\0${toolId}`, () => this.entries.getLatest(toolId));
  }

  version(toolId: string, version: string): Promise<PublishedEntry | undefined> {
    return this.cache.remember(`version\0${toolId}\0${version}`, () => this.entries.getVersion(toolId, version));
  }

  versions(toolId: string): Promise<PublishedEntry[]> {
    return this.cache.remember(`versions\0${toolId}`, () => this.entries.listVersions(toolId));
  }

  page(limit: number, filter: LatestFilter, cursor?: string): Promise<LatestPage> {
    const key = `page\0${JSON.stringify([limit, filter.type, filter.tag, filter.updatedSince, cursor])}`;
    return this.cache.remember(key, () => this.entries.listLatest(limit, filter, cursor));
  }

  allLatest(): Promise<PublishedEntry[]> {
    return this.cache.remember("all-latest", () => this.entries.listAllLatest());
  }

  invalidate(): void {
    this.cache.invalidate();
  }
}
