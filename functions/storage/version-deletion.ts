import { BatchWriteCommand, DeleteCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { TOMBSTONE_ORDER } from "../entry/version-rank.js";
import { assertToolId, setIf } from "./entry-table.js";
import { conditionalWrite } from "./query-all.js";
import { isConditionFailure } from "./storage-errors.js";
import { DELETING_STATE, LATEST_SORT_KEY } from "./table-schema.js";

/**
 * The writes of deletions: one version marked and removed, or a tool's versions claimed under a
 * tombstone, deleted, and the tombstone removed (docs/storage.md).
 */
export class VersionDeletion {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The first step of deleting one version: readers stop seeing it (false when it is not stored). */
  async markDeleting(toolId: string, version: string): Promise<boolean> {
    return setIf(this.db, this.table, { toolId, version }, "state", DELETING_STATE, "attribute_exists(tool_id)");
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
}
