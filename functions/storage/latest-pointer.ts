import { randomUUID } from "node:crypto";
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { PublishedEntry } from "../entry/published-entry.js";
import { pointerOrder } from "../entry/version-rank.js";
import { assertToolId } from "./entry-table.js";
import { isListed, pointerItem } from "./latest-pointer-item.js";
import { conditionalWrite } from "./query-all.js";
import { isConditionFailure } from "./storage-errors.js";
import { INDEX_REPAIR_ATTRIBUTE, LATEST_CATALOG, LATEST_INDEX, LATEST_SORT_KEY } from "./table-schema.js";

/**
 * The pointer moves only forward, by `latest_order` (semver rank, then `updated_at` of the same
 * version); a tombstone's order is above every other, and a legacy pointer without one may be
 * overwritten (readers then settle on the highest version again).
 */
const POINTER_ADVANCES = "attribute_not_exists(#order) OR #order < :order";

/**
 * Moves of each tool's latest pointer (`table-schema.ts`): forward with a publish, back when the
 * version it names goes, and the doctor's rewrites that make a listing index hold it again.
 */
export class LatestPointer {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

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
}
