import { randomUUID } from "node:crypto";
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from "@aws-sdk/lib-dynamodb";
import type { CatalogChange } from "../entry/catalog-change.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { pointerOrder, TOMBSTONE_ORDER, versionRank } from "../entry/version-rank.js";
import { isToolId } from "../validate/tool-id.js";
import { indexQueryInput } from "./index-query.js";
import { scanKeyPage } from "./key-scan.js";
import { conditionalWrite, queryAll } from "./query-all.js";
import { changeSlot, RevisionLog, snapshotAttribute, snapshotDigestAttribute, type SnapshotKind } from "./revision-log.js";
import {
  ARCHIVE_INDEX,
  DELETING_STATE,
  INDEX_REPAIR_ATTRIBUTE,
  LATEST_CATALOG,
  LATEST_INDEX,
  LATEST_SORT_KEY,
  PENDING_STATE,
  REVISION_KEY,
} from "./table-schema.js";
import { referencedVersion, versionListsArchive, writeReferences } from "./platform-archive-references.js";
import { isConditionFailure } from "./storage-errors.js";
import { PARTITION_PROJECTION, summarisePartition, type ToolPartition } from "./tool-partition.js";

/** Parallel segments of the doctor's key scan: eight requests in flight, well within on-demand read capacity. */
const SCAN_SEGMENTS = 8;

/**
 * The tool id ranges that listing every latest entry reads at once: [from, to), the first open
 * below and the last open above, so every id is in exactly one. Bounds at initials that split a
 * catalogue of English names roughly evenly (ids start with a letter or digit: validate/tool-id.ts).
 */
const LATEST_RANGES: readonly [from: string | undefined, to: string | undefined][] = [
  [undefined, "A"],
  ["A", "a"],
  ["a", "d"],
  ["d", "g"],
  ["g", "l"],
  ["l", "p"],
  ["p", "s"],
  ["s", "v"],
  ["v", undefined],
];

/** Thrown by `putVersion` when the `(tool_id, version)` pair is already stored. */
export class VersionExistsError extends Error {
  constructor(
    readonly toolId: string,
    readonly version: string,
  ) {
    super(`${toolId}@${version} already exists`);
    this.name = "VersionExistsError";
  }
}

/** A version item as stored: the entry plus the publish bookkeeping beside it. */
export interface StoredVersion {
  entry: PublishedEntry;
  /** Its publish has not finished (see `markPublished`). */
  pending: boolean;
  /** A delete of this version has started (see `markDeleting`): readers no longer see it. */
  deleting: boolean;
  /** Identifies the uploaded release (see `release-digest.ts`); absent on items older than it. */
  releaseDigest?: string;
}

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
 * The pointer moves only forward, by `latest_order` (semver rank, then `updated_at` of the same
 * version); a tombstone's order is above every other, and a legacy pointer without one may be
 * overwritten (readers then settle on the highest version again).
 */
const POINTER_ADVANCES = "attribute_not_exists(#order) OR #order < :order";

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

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The latest pointer's copy of the entry, as listed; readers use `CatalogReader.latest`, which repairs. */
  async getLatest(toolId: string): Promise<PublishedEntry | undefined> {
    if (!isToolId(toolId)) return undefined;
    return this.getEntry(toolId, LATEST_SORT_KEY);
  }

  /** A version as readers see it: none while a delete of it runs. */
  async getVersion(toolId: string, version: string): Promise<PublishedEntry | undefined> {
    const stored = await this.getStoredVersion(toolId, version);
    return stored === undefined || stored.deleting ? undefined : stored.entry;
  }

  async getStoredVersion(toolId: string, version: string): Promise<StoredVersion | undefined> {
    if (!isToolId(toolId) || version.startsWith("#")) return undefined;
    const result = await this.db.send(new GetCommand({ TableName: this.table, Key: { tool_id: toolId, version }, ConsistentRead: true }));
    const item = result.Item;
    if (item === undefined || item.entry === undefined) return undefined;
    return {
      entry: item.entry as PublishedEntry,
      pending: item.state === PENDING_STATE,
      deleting: item.state === DELETING_STATE,
      ...(typeof item.release_digest === "string" ? { releaseDigest: item.release_digest } : {}),
    };
  }

  /** Everything under one tool id in one consistent Query, entries left out. */
  async readPartition(toolId: string): Promise<ToolPartition> {
    assertToolId(toolId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: "tool_id = :id",
      ExpressionAttributeValues: { ":id": toolId },
      ProjectionExpression: PARTITION_PROJECTION.expression,
      ExpressionAttributeNames: { ...PARTITION_PROJECTION.names },
      ConsistentRead: true,
    });
    return summarisePartition(toolId, items);
  }

  /**
   * Stores a new version as pending; exactly one of many concurrent puts of the same pair
   * succeeds, the others get VersionExistsError.
   */
  async putVersion(entry: PublishedEntry, releaseDigest: string): Promise<void> {
    assertToolId(entry.tool_id);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            tool_id: entry.tool_id,
            version: entry.version,
            entry,
            tool_archive_sha256: entry.tool_archive_sha256,
            version_rank: versionRank(entry.version),
            release_digest: releaseDigest,
            state: PENDING_STATE,
          },
          ConditionExpression: "attribute_not_exists(tool_id)",
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new VersionExistsError(entry.tool_id, entry.version);
      throw error;
    }
  }

  /**
   * Writes the reference items of a version's further platform archives (`platform-archive-references.ts`)
   * before its version item, as the archive itself is written before it: no moment exists where a
   * stored version names an archive that a delete could take for unreferenced.
   */
  async putArchiveReferences(toolId: string, version: string, sha256s: readonly string[]): Promise<void> {
    assertToolId(toolId);
    await writeReferences(this.db, this.table, "put", toolId, version, sha256s);
  }

  /** Removes them again: when the version goes, or when an upload that wrote them was refused. */
  async deleteArchiveReferences(toolId: string, version: string, sha256s: readonly string[]): Promise<void> {
    assertToolId(toolId);
    await writeReferences(this.db, this.table, "delete", toolId, version, sha256s);
  }

  /** The last step of a publish: the version is no longer pending. */
  async markPublished(toolId: string, version: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { tool_id: toolId, version },
          UpdateExpression: "REMOVE #state",
          ConditionExpression: "attribute_exists(tool_id)",
          ExpressionAttributeNames: { "#state": "state" },
        }),
      );
    } catch (error) {
      // Deleted meanwhile: nothing left to mark.
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * Points the tool's latest pointer at `entry` when that moves it forward (a higher version, or a
   * newer edit of the same one): one conditional write, so concurrent publishers need no retries
   * and the pointer ends on the highest version whatever the order. False when it did not move
   * (a higher version is latest, or a delete holds the key). A yanked version is never latest.
   */
  async advancePointer(entry: PublishedEntry): Promise<boolean> {
    assertToolId(entry.tool_id);
    if (entry.status === "yanked") return false;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: pointerItem(entry),
          ConditionExpression: POINTER_ADVANCES,
          ExpressionAttributeNames: { "#order": "latest_order" },
          ExpressionAttributeValues: { ":order": pointerOrder(entry.version, entry.updated_at) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Moves the pointer back from `from` (as read: its version and `latest_order`) to `replacement`,
   * or removes it when there is none, only if nobody moved it since: the one write that may lower
   * the pointer, used when the version it names was yanked or deleted. A concurrent publish that
   * moved it forward wins (false); callers then re-read and settle on the highest version.
   */
  async retreatPointer(toolId: string, from: { version: string; order?: string }, replacement?: PublishedEntry): Promise<boolean> {
    assertToolId(toolId);
    const condition =
      from.order === undefined
        ? {
            ConditionExpression: "attribute_not_exists(#order) AND #latest = :was AND attribute_not_exists(#deleting)",
            ExpressionAttributeValues: { ":was": from.version },
          }
        : { ConditionExpression: "#order = :was", ExpressionAttributeValues: { ":was": from.order } };
    const names: Record<string, string> =
      from.order === undefined
        ? { "#order": "latest_order", "#latest": "latest_version", "#deleting": "deleting" }
        : { "#order": "latest_order" };
    const key = { tool_id: toolId, version: LATEST_SORT_KEY };
    return conditionalWrite(
      replacement === undefined
        ? this.db.send(new DeleteCommand({ TableName: this.table, Key: key, ...condition, ExpressionAttributeNames: names }))
        : this.db.send(
            new PutCommand({ TableName: this.table, Item: pointerItem(replacement), ...condition, ExpressionAttributeNames: names }),
          ),
    );
  }

  /** The first step of deleting one version: readers stop seeing it (false when it is not stored). */
  async markDeleting(toolId: string, version: string): Promise<boolean> {
    return this.setIf(toolId, version, "state", DELETING_STATE, "attribute_exists(tool_id)");
  }

  /** Removes a version item that `markDeleting` marked (one published again since stays). */
  async removeDeletingVersion(toolId: string, version: string): Promise<void> {
    assertToolId(toolId);
    await conditionalWrite(
      this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { tool_id: toolId, version },
          ConditionExpression: "#state = :deleting",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: { ":deleting": DELETING_STATE },
        }),
      ),
    );
  }

  /**
   * Replaces the entry of a stored version if it still was last edited at `expectedUpdatedAt`
   * (compare-and-set: a concurrent edit makes this false), then moves the pointer if it names it.
   */
  async updateVersionEntry(entry: PublishedEntry, expectedUpdatedAt: string): Promise<boolean> {
    assertToolId(entry.tool_id);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { tool_id: entry.tool_id, version: entry.version },
          UpdateExpression: "SET #entry = :entry",
          ConditionExpression: "#entry.#updated = :expected",
          ExpressionAttributeNames: { "#entry": "entry", "#updated": "updated_at" },
          ExpressionAttributeValues: { ":entry": entry, ":expected": expectedUpdatedAt },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    await this.advancePointer(entry);
    return true;
  }

  /** `updateVersionEntry` against whatever is stored (bulk edits in tests and tools). */
  async replaceVersion(entry: PublishedEntry): Promise<boolean> {
    const stored = await this.getStoredVersion(entry.tool_id, entry.version);
    return stored !== undefined && this.updateVersionEntry(entry, stored.entry.updated_at);
  }

  /**
   * Every version a reader may see (none a delete has claimed), newest (highest semver) first;
   * yanked ones only with `includeYanked`.
   */
  async listVersions(toolId: string, options: { includeYanked?: boolean } = {}): Promise<PublishedEntry[]> {
    if (!isToolId(toolId)) return [];
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: "tool_id = :id",
      ExpressionAttributeValues: { ":id": toolId },
      ConsistentRead: true,
    });
    const pointer = items.find((item) => item.version === LATEST_SORT_KEY);
    const doomed = new Set(Array.isArray(pointer?.deleting) ? pointer.deleting.map(String) : []);
    return items
      .filter((item) => item.version !== LATEST_SORT_KEY && !doomed.has(String(item.version)) && item.state !== DELETING_STATE)
      .map((item) => item.entry as PublishedEntry)
      .filter((entry) => options.includeYanked === true || entry.status !== "yanked")
      .sort((a, b) => (versionRank(a.version) < versionRank(b.version) ? 1 : versionRank(a.version) > versionRank(b.version) ? -1 : 0));
  }

  /**
   * Every latest entry, in tool id order. Only the indexer makes it regularly (readers start from
   * the listing it stores: catalog/latest-catalog.ts).
   */
  async listAllLatest(): Promise<PublishedEntry[]> {
    const byRange: PublishedEntry[][] = LATEST_RANGES.map(() => []);
    await this.forEachLatestPage((entries, range) => byRange[range]!.push(...entries));
    return byRange.flat();
  }

  /**
   * Every latest entry, page by page as the pages arrive (for building the search index while
   * the rest is still being read): `LATEST_RANGES` of tool ids are read at once, each in tool id
   * order, so a catalogue comes in as many round trips as its largest range needs.
   */
  async forEachLatestPage(onPage: (entries: PublishedEntry[], range: number) => void): Promise<void> {
    const base = indexQueryInput(this.table, LATEST_INDEX, LATEST_CATALOG);
    await Promise.all(
      LATEST_RANGES.map(async ([from, to], range) => {
        const conditions = [
          base.KeyConditionExpression,
          from === undefined ? "#sort < :to" : to === undefined ? "#sort >= :from" : "#sort BETWEEN :from AND :to",
        ];
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await this.db.send(
            new QueryCommand({
              ...base,
              KeyConditionExpression: conditions.join(" AND "),
              ExpressionAttributeNames: { ...base.ExpressionAttributeNames, "#sort": LATEST_INDEX.sort },
              ExpressionAttributeValues: {
                ...base.ExpressionAttributeValues,
                ...(from === undefined ? {} : { ":from": from }),
                ...(to === undefined ? {} : { ":to": to }),
              },
              ExclusiveStartKey: startKey,
            }),
          );
          // BETWEEN takes its upper end too: that id belongs to the next range.
          onPage(
            (page.Items ?? []).filter((item) => item.tool_id !== to && isListed(item)).map((item) => item.entry as PublishedEntry),
            range,
          );
          startKey = page.LastEvaluatedKey;
        } while (startKey);
      }),
    );
  }

  /**
   * Claims versions for deletion: the pointer key then holds a tombstone listing them, which
   * hides them from readers and keeps the pointer from being recreated until `endDeletion`.
   */
  async beginDeletion(toolId: string, versions: readonly string[], deletionId: string): Promise<void> {
    assertToolId(toolId);
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          tool_id: toolId,
          version: LATEST_SORT_KEY,
          deleting: [...versions],
          deletion_id: deletionId,
          latest_order: TOMBSTONE_ORDER,
        },
      }),
    );
  }

  /** Deletes these version items (absent ones are fine). */
  async deleteVersions(toolId: string, versions: readonly string[]): Promise<void> {
    assertToolId(toolId);
    for (let start = 0; start < versions.length; start += 25) {
      let requests = versions.slice(start, start + 25).map((version) => ({ DeleteRequest: { Key: { tool_id: toolId, version } } }));
      while (requests.length > 0) {
        const result = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: requests } }));
        requests = (result.UnprocessedItems?.[this.table] ?? []) as typeof requests;
      }
    }
  }

  /** Removes the tombstone of deletion `deletionId` (a later deletion's tombstone stays). */
  async endDeletion(toolId: string, deletionId: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { tool_id: toolId, version: LATEST_SORT_KEY },
          ConditionExpression: "#deletion = :id",
          ExpressionAttributeNames: { "#deletion": "deletion_id" },
          ExpressionAttributeValues: { ":id": deletionId },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
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
        let start: Record<string, unknown> | undefined;
        do {
          const page = await scanKeyPage(this.db, this.table, { segment, segments, ...(start === undefined ? {} : { start }) });
          for (const toolId of page.toolIds) ids.add(toolId);
          start = page.next;
        } while (start);
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

  /**
   * Writes the tool's pointer again exactly as stored, conditional on the order it was read at, so
   * a listing index that lost or lags its entry holds it again (an index follows only the writes
   * of the items it indexes). False when there is no pointer (a tombstone, or nothing) or it moved.
   */
  async rewritePointer(toolId: string): Promise<boolean> {
    assertToolId(toolId);
    const key = { tool_id: toolId, version: LATEST_SORT_KEY };
    const item = (await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }))).Item;
    if (item === undefined || !isListed(item)) return false;
    const condition =
      typeof item.latest_order === "string"
        ? { ConditionExpression: "#order = :order", ExpressionAttributeValues: { ":order": item.latest_order } }
        : { ConditionExpression: "attribute_not_exists(#order)" };
    return conditionalWrite(
      this.db.send(
        new PutCommand({ TableName: this.table, Item: item, ...condition, ExpressionAttributeNames: { "#order": "latest_order" } }),
      ),
    );
  }

  /**
   * Clears a listing-index entry that names a pointer the table does not hold. An index changes
   * only through the items it indexes, so a placeholder pointer is written under that key (its
   * index entry replaces the phantom) and deleted again, conditional on being that placeholder: a
   * pointer a publish wrote meanwhile stays. False when a pointer is stored (nothing to clear).
   */
  async clearPhantomPointer(toolId: string): Promise<boolean> {
    assertToolId(toolId);
    const key = { tool_id: toolId, version: LATEST_SORT_KEY };
    const repair = randomUUID();
    const placed = await conditionalWrite(
      this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...key, [LATEST_INDEX.partition]: LATEST_CATALOG, [INDEX_REPAIR_ATTRIBUTE]: repair },
          ConditionExpression: "attribute_not_exists(tool_id)",
        }),
      ),
    );
    if (!placed) return false;
    await conditionalWrite(
      this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: key,
          ConditionExpression: "#repair = :repair",
          ExpressionAttributeNames: { "#repair": INDEX_REPAIR_ATTRIBUTE },
          ExpressionAttributeValues: { ":repair": repair },
        }),
      ),
    );
    return true;
  }

  /** Writes a version item's archive reference again (unchanged), so an archive index that lost its entry holds it again. */
  async rewriteArchiveReference(toolId: string, version: string, sha256: string): Promise<boolean> {
    return this.setIf(toolId, version, ARCHIVE_INDEX.partition, sha256, "#attribute = :value");
  }

  /** Sets one attribute of a version item if `condition` holds (it may name `#attribute` and `:value`); false when it does not. */
  private setIf(toolId: string, version: string, attribute: string, value: string, condition: string): Promise<boolean> {
    assertToolId(toolId);
    return conditionalWrite(
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { tool_id: toolId, version },
          UpdateExpression: "SET #attribute = :value",
          ConditionExpression: condition,
          ExpressionAttributeNames: { "#attribute": attribute },
          ExpressionAttributeValues: { ":value": value },
        }),
      ),
    );
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
   * After the indexer stored a snapshot of that kind at `revision` with that sha256: the revision
   * item names both (forward only, so an indexer that lost a race never points readers back; the
   * same revision again when its bytes differ). False when a newer one is named.
   */
  async recordSnapshot(kind: SnapshotKind, revision: number, sha256: string): Promise<boolean> {
    return conditionalWrite(
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: REVISION_KEY,
          UpdateExpression: "SET #snapshot = :revision, #digest = :sha256",
          ConditionExpression: "attribute_not_exists(#snapshot) OR #snapshot <= :revision",
          ExpressionAttributeNames: { "#snapshot": snapshotAttribute(kind), "#digest": snapshotDigestAttribute(kind) },
          ExpressionAttributeValues: { ":revision": revision, ":sha256": sha256 },
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

  private async getEntry(toolId: string, sortKey: string): Promise<PublishedEntry | undefined> {
    const result = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { tool_id: toolId, version: sortKey }, ConsistentRead: true }),
    );
    return result.Item?.entry as PublishedEntry | undefined;
  }
}

/** The latest pointer naming `entry`: a copy of it, in the listing index, ordered by `pointerOrder`. */
function pointerItem(entry: PublishedEntry): Record<string, unknown> {
  return {
    tool_id: entry.tool_id,
    version: LATEST_SORT_KEY,
    catalog: LATEST_CATALOG,
    latest_version: entry.version,
    latest_order: pointerOrder(entry.version, entry.updated_at),
    entry,
  };
}

/** A listing-index item that is a pointer with its entry (not the doctor's index-repair placeholder). */
function isListed(item: Record<string, unknown>): boolean {
  return item.entry !== undefined && item[INDEX_REPAIR_ATTRIBUTE] === undefined;
}

/** Storage keys of tools must be tool ids: internal items (`#…`) are never reachable through them. */
function assertToolId(toolId: string): void {
  if (!isToolId(toolId)) throw new RangeError(`not a tool id: ${JSON.stringify(toolId.slice(0, 140))}`);
}
