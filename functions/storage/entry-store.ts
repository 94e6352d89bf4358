import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { CatalogRevision } from "./catalog-revision.js";
import { EntryReads } from "./entry-reads.js";
import { IndexQueries } from "./index-queries.js";
import { LatestPointer } from "./latest-pointer.js";
import { VersionDeletion } from "./version-deletion.js";
import { VersionWrites } from "./version-writes.js";

/**
 * ToolEntries in DynamoDB (layout in `table-schema.ts`), one store per concern over one table. No
 * transactions (dynalite has none): every write is a single-item conditional write, and the
 * publish and delete pipelines built on them converge under retries, crashes and concurrency
 * (docs/storage.md). The stores read and write; the stage that owns a step decides.
 */
export class EntryStore {
  /** Reads of versions, partitions and latest entries. */
  readonly reads: EntryReads;
  /** Moves of each tool's latest pointer. */
  readonly pointer: LatestPointer;
  /** Writes of version items: publishing, editing. */
  readonly versions: VersionWrites;
  /** Deleting versions and whole tools. */
  readonly deletion: VersionDeletion;
  /** What the doctor compares with the indexes. */
  readonly indexes: IndexQueries;
  /** The catalog revision item: bumps, the change log, the snapshots it names. */
  readonly revision: CatalogRevision;

  /** `reads` may be given (a test's counting reads); every other store is built on the table. */
  constructor(db: DynamoDBDocumentClient, table: string, reads = new EntryReads(db, table)) {
    this.reads = reads;
    this.pointer = new LatestPointer(db, table);
    this.versions = new VersionWrites(db, table, reads, this.pointer);
    this.deletion = new VersionDeletion(db, table);
    this.indexes = new IndexQueries(db, table);
    this.revision = new CatalogRevision(db, table);
  }
}
