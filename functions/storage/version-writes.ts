import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { PublishedEntry } from "../entry/published-entry.js";
import { versionRank } from "../entry/version-rank.js";
import type { EntryReads } from "./entry-reads.js";
import { assertToolId } from "./entry-table.js";
import type { LatestPointer } from "./latest-pointer.js";
import { writeReferences } from "./platform-archive-references.js";
import { isConditionFailure } from "./storage-errors.js";
import { PENDING_STATE } from "./table-schema.js";

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

/** Writes of version items: a publish's pending put and its last mark, edits of a stored entry. */
export class VersionWrites {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly reads: EntryReads,
    private readonly pointer: LatestPointer,
  ) {}

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
    await this.pointer.advancePointer(entry);
    return true;
  }

  /** `updateVersionEntry` against whatever is stored (bulk edits in tests and tools). */
  async replaceVersion(entry: PublishedEntry): Promise<boolean> {
    const stored = await this.reads.getStoredVersion(entry.tool_id, entry.version);
    return stored !== undefined && this.updateVersionEntry(entry, stored.entry.updated_at);
  }
}
