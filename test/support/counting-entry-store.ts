import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { PublishedEntry } from "../../functions/entry/published-entry.js";
import { EntryReads } from "../../functions/storage/entry-reads.js";
import { EntryStore } from "../../functions/storage/entry-store.js";

/** The real reads, counting the calls that say whether a reader scanned or re-read single tools. */
class CountingEntryReads extends EntryReads {
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

/** The real store, its reads counted. */
export class CountingEntryStore extends EntryStore {
  declare readonly reads: CountingEntryReads;

  constructor(db: DynamoDBDocumentClient, table: string) {
    super(db, table, new CountingEntryReads(db, table));
  }

  get scans(): number {
    return this.reads.scans;
  }

  set scans(count: number) {
    this.reads.scans = count;
  }

  get latestReads(): number {
    return this.reads.latestReads;
  }

  set latestReads(count: number) {
    this.reads.latestReads = count;
  }
}
