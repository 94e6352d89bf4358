import { GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "./storage-errors.js";
import { TRUST_PARTITIONS } from "./trust-keys.js";

/**
 * Who owns each tool id (`#owners`, tool id → publisher name). The first publisher of an id claims
 * it with one conditional put, so of two concurrent first publishes exactly one owns the id; the
 * claim outlives deleting the tool, so nobody else can take over a name agents already trust.
 */
export class OwnerStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(toolId: string): Promise<string | undefined> {
    const result = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { tool_id: TRUST_PARTITIONS.owners, version: toolId }, ConsistentRead: true }),
    );
    return typeof result.Item?.owner === "string" ? result.Item.owner : undefined;
  }

  /** Claims `toolId` for `publisher` unless someone owns it already; returns the owner afterwards. */
  async claim(toolId: string, publisher: string, now: string): Promise<string> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { tool_id: TRUST_PARTITIONS.owners, version: toolId, owner: publisher, claimed_at: now },
          ConditionExpression: "attribute_not_exists(tool_id)",
        }),
      );
      return publisher;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get(toolId)) ?? publisher;
    }
  }
}
