import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { CatalogChange } from "../entry/catalog-change.js";
import { conditionalWrite } from "./query-all.js";
import { changeSlot, RevisionLog, snapshotAttribute, snapshotDigestAttribute, type SnapshotKind } from "./revision-log.js";
import { isConditionFailure } from "./storage-errors.js";
import { REVISION_KEY } from "./table-schema.js";

/** The catalog revision item: the counter every catalog write bumps, its change log, the snapshots it names. */
export class CatalogRevision {
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
}
