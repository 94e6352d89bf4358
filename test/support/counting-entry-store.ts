import type { PublishedEntry } from "../../functions/entry/published-entry.js";
import { EntryStore } from "../../functions/storage/entry-store.js";

/** The real store, counting the calls that say whether a reader scanned or re-read single tools. */
export class CountingEntryStore extends EntryStore {
  scans = 0;
  latestReads = 0;

  /** Every full read of the latest entries goes through here (`listAllLatest` too). */
  override forEachLatestPage(onPage: (entries: PublishedEntry[], range: number) => void): Promise<void> {
    this.scans++;
    return super.forEachLatestPage(onPage);
  }

  override getLatest(toolId: string): Promise<PublishedEntry | undefined> {
    this.latestReads++;
    return super.getLatest(toolId);
  }
}
