import { GetCommand, ScanCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CatalogChange } from "../entry/catalog-change.js";
import { isToolId } from "../validate/tool-id.js";
import { indexQueryInput } from "./index-query.js";
import { conditionalWrite, queryAll } from "./query-all.js";
import { changeSlot, RevisionLog, snapshotAttribute, type SnapshotKind } from "./revision-log.js";
import { ARCHIVE_INDEX, LATEST_CATALOG, LATEST_INDEX, REVISION_KEY } from "./table-schema.js";
import { referencedVersion, versionListsArchive } from "./platform-archive-references.js";
import { isConditionFailure } from "./storage-errors.js";
import { EntryReads } from "./entry-reads.js";
import { LatestPointer } from "./latest-pointer.js";
import { VersionWrites } from "./version-writes.js";
import { VersionDeletion } from "./version-deletion.js";
import { setIf } from "./entry-table.js";

/** Parallel segments of the doctor's key scan: eight requests in flight, well within on-demand read capacity. */
const SCAN_SEGMENTS = 8;

/** A listing-index entry as the doctor compares it with the table: which pointer, at which order. */
export interface LatestIndexEntry {
  toolId: string;
  version: string;
  order?: string;
}

/** An archive-index entry: the version item it says references the archive. */
export interface ArchiveIndexEntry {
  toolId: string;
  version: string;
  sha256: string;
}

/**
 * ToolEntries in DynamoDB (layout in `table-schema.ts`). No transactions (dynalite has none):
 * every write is a single-item conditional write, and the publish and delete pipelines built on
 * them converge under retries, crashes and concurrency (docs/storage.md).
 */
export class EntryStore {
  /**
   * The catalog revision as this store last wrote or read it: a hint that lets `recordChange` bump
   * and log in one conditional write. Never ahead of storage (only stored values are kept), so a
   * stale hint only costs a failed condition.
   */
  private knownRevision: number | undefined;

  /** Reads of versions, partitions and latest entries. */
  readonly reads: EntryReads;
  /** Moves of each tool's latest pointer. */
  readonly pointer: LatestPointer;
  /** Writes of version items: publishing, editing. */
  readonly versions: VersionWrites;
  /** Deleting versions and whole tools. */
  readonly deletion: VersionDeletion;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    reads = new EntryReads(db, table),
  ) {
    this.reads = reads;
    this.pointer = new LatestPointer(db, table);
    this.versions = new VersionWrites(db, table, this.reads, this.pointer);
    this.deletion = new VersionDeletion(db, table);
  }

  /**
   * Every tool id with anything stored (for the doctor): one Scan of the keys, in `segments`
   * parallel segments (DynamoDB's parallel scan), so a large table is read at several partitions'
   * pace instead of one page after another.
   */
  async listToolIds(segments = SCAN_SEGMENTS): Promise<string[]> {
    const ids = new Set<string>();
    await Promise.all(
      Array.from({ length: segments }, async (_, segment) => {
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await this.db.send(
            new ScanCommand({
              TableName: this.table,
              ProjectionExpression: "tool_id",
              Segment: segment,
              TotalSegments: segments,
              ExclusiveStartKey: startKey,
            }),
          );
          for (const item of page.Items ?? []) if (isToolId(String(item.tool_id))) ids.add(String(item.tool_id));
          startKey = page.LastEvaluatedKey;
        } while (startKey);
      }),
    );
    return [...ids].sort();
  }

  /**
   * Whether any version item references the archive with this hash, as the items themselves say.
   * The archive index only says where to look: dynalite writes an index entry before its item, so
   * a kill between the two leaves an entry naming an item that is not stored, and DynamoDB's
   * indexes are eventually consistent. Each entry is confirmed by a consistent read of the item it
   * names (docs/durability.md, "Repair trusts only base items").
   */
  async archiveReferenced(sha256: string): Promise<boolean> {
    for (const named of await this.archiveIndexEntries(sha256)) {
      // A platform archive's reference item: the version it names must list the archive.
      const version = referencedVersion(named);
      if (version !== undefined) {
        if (await versionListsArchive(this.db, this.table, version, sha256)) return true;
        continue;
      }
      const result = await this.db.send(
        new GetCommand({
          TableName: this.table,
          Key: { tool_id: named.toolId, version: named.version },
          ConsistentRead: true,
          ProjectionExpression: "#sha",
          ExpressionAttributeNames: { "#sha": ARCHIVE_INDEX.partition },
        }),
      );
      if (result.Item?.[ARCHIVE_INDEX.partition] === sha256) return true;
    }
    return false;
  }

  /** The listing index's entries (keys and order only; only `toolId`'s when given), for the doctor to compare with the pointers. */
  async latestIndexEntries(toolId?: string): Promise<LatestIndexEntry[]> {
    const base = indexQueryInput(this.table, LATEST_INDEX, LATEST_CATALOG);
    const items = await queryAll(this.db, {
      ...base,
      ...(toolId === undefined
        ? {}
        : {
            KeyConditionExpression: `${base.KeyConditionExpression} AND #tool = :tool`,
            ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ":tool": toolId },
          }),
      ProjectionExpression: "#tool, #latest, #order",
      ExpressionAttributeNames: {
        ...base.ExpressionAttributeNames,
        "#tool": "tool_id",
        "#latest": "latest_version",
        "#order": "latest_order",
      },
    });
    return items.map((item) => ({
      toolId: String(item.tool_id),
      version: String(item.latest_version ?? ""),
      ...(typeof item.latest_order === "string" ? { order: item.latest_order } : {}),
    }));
  }

  /** The archive index's entries (only those of `sha256` when given), for the doctor to compare with the version items. */
  async archiveIndexEntries(sha256?: string): Promise<ArchiveIndexEntry[]> {
    const items: Record<string, unknown>[] = [];
    if (sha256 !== undefined) items.push(...(await queryAll(this.db, indexQueryInput(this.table, ARCHIVE_INDEX, sha256))));
    else {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await this.db.send(
          new ScanCommand({ TableName: this.table, IndexName: ARCHIVE_INDEX.name, ExclusiveStartKey: startKey }),
        );
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
    return items.map((item) => ({
      toolId: String(item.tool_id),
      version: String(item.version),
      sha256: String(item[ARCHIVE_INDEX.partition]),
    }));
  }

  /** Writes a version item's archive reference again (unchanged), so an archive index that lost its entry holds it again. */
  async rewriteArchiveReference(toolId: string, version: string, sha256: string): Promise<boolean> {
    return setIf(this.db, this.table, { toolId, version }, ARCHIVE_INDEX.partition, sha256, "#attribute = :value");
  }

  /** Marks a catalog change; every process sees a new `catalogRevision()` afterwards. */
  async bumpRevision(): Promise<string> {
    const result = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: REVISION_KEY,
        UpdateExpression: "ADD revision :one",
        ExpressionAttributeValues: { ":one": 1 },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    const revision = Number(result.Attributes?.revision ?? 0);
    this.knownRevision = revision;
    return String(revision);
  }

  /**
   * Bumps the revision and logs which tool it changed (see revision-log.ts); returns the new
   * revision. `alongside` runs once the bump is stored (with the log write when that is separate).
   */
  async recordChange(change: CatalogChange, alongside?: () => Promise<void>): Promise<number> {
    const logged = await this.bumpAndLog(change);
    if (logged !== undefined) {
      await alongside?.();
      return logged;
    }
    const revision = Number(await this.bumpRevision());
    await Promise.all([this.logChange(revision, change), alongside?.()]);
    return revision;
  }

  /**
   * The common case of `recordChange` in one write: when this store knows the current revision,
   * the bump and the next revision's change-log slot go in one update conditional on it (so the
   * slot is exact, and atomic with the bump). Undefined when the revision is unknown here or another
   * writer moved it first; the caller then bumps and logs in two writes.
   */
  private async bumpAndLog(change: CatalogChange): Promise<number | undefined> {
    const expected = this.knownRevision;
    if (expected === undefined) return undefined;
    const next = expected + 1;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: REVISION_KEY,
          UpdateExpression: "SET #slot = :change ADD #revision :one",
          ConditionExpression: expected === 0 ? "attribute_not_exists(#revision)" : "#revision = :expected",
          ExpressionAttributeNames: { "#slot": changeSlot(next), "#revision": "revision" },
          ExpressionAttributeValues: {
            ":change": { revision: next, tool_id: change.toolId },
            ":one": 1,
            ...(expected === 0 ? {} : { ":expected": expected }),
          },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (this.knownRevision === expected) this.knownRevision = undefined;
      return undefined;
    }
    this.knownRevision = next;
    return next;
  }

  private async logChange(revision: number, change: CatalogChange): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: REVISION_KEY,
        UpdateExpression: "SET #slot = :change",
        ExpressionAttributeNames: { "#slot": changeSlot(revision) },
        ExpressionAttributeValues: { ":change": { revision, tool_id: change.toolId } },
      }),
    );
  }

  /**
   * After the indexer stored a snapshot of that kind at `revision`: the revision item names it
   * (forward only, so an indexer that lost a race never points readers back). False when a newer one is named.
   */
  async recordSnapshot(kind: SnapshotKind, revision: number): Promise<boolean> {
    return conditionalWrite(
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: REVISION_KEY,
          UpdateExpression: "SET #snapshot = :revision",
          ConditionExpression: "attribute_not_exists(#snapshot) OR #snapshot < :revision",
          ExpressionAttributeNames: { "#snapshot": snapshotAttribute(kind) },
          ExpressionAttributeValues: { ":revision": revision },
        }),
      ),
    );
  }

  /** A string that changes on every catalog write (publish, update, delete). */
  async catalogRevision(): Promise<string> {
    return String((await this.readRevisionLog()).revision);
  }

  /** The revision and the log of the tools its last revisions changed. */
  async readRevisionLog(): Promise<RevisionLog> {
    const result = await this.db.send(new GetCommand({ TableName: this.table, Key: REVISION_KEY, ConsistentRead: true }));
    const log = new RevisionLog(result.Item);
    this.knownRevision = log.revision;
    return log;
  }
}
