import { GetCommand, PutCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "./storage-errors.js";
import { TRUST_PARTITIONS } from "./trust-keys.js";

/** Owners remembered per process; past this many, the longest-known is forgotten first. */
const REMEMBERED_OWNERS = 10_000;

/**
 * Who owns each tool id (`#owners`, tool id → publisher name). The first publisher of an id claims
 * it with one conditional put, so of two concurrent first publishes exactly one owns the id; the
 * claim outlives deleting the tool, so nobody else can take over a name agents already trust.
 * Nothing ever changes or removes a claim, so an owner once read or claimed is remembered in
 * process: publishing another version of a known tool reads nothing here.
 */
export class OwnerStore {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(toolId: string): Promise<string | undefined> {
    const remembered = this.known.get(toolId);
    if (remembered !== undefined) return remembered;
    const result = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { tool_id: TRUST_PARTITIONS.owners, version: toolId }, ConsistentRead: true }),
    );
    const owner = typeof result.Item?.owner === "string" ? result.Item.owner : undefined;
    if (owner !== undefined) this.remember(toolId, owner);
    return owner;
  }

  /** Claims `toolId` for `publisher` unless someone owns it already; returns the owner afterwards. */
  async claim(toolId: string, publisher: string, now: string): Promise<string> {
    const remembered = this.known.get(toolId);
    if (remembered !== undefined) return remembered;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { tool_id: TRUST_PARTITIONS.owners, version: toolId, owner: publisher, claimed_at: now },
          ConditionExpression: "attribute_not_exists(tool_id)",
        }),
      );
      this.remember(toolId, publisher);
      return publisher;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return (await this.get(toolId)) ?? publisher;
    }
  }

  private remember(toolId: string, owner: string): void {
    if (this.known.size >= REMEMBERED_OWNERS) this.known.delete(this.known.keys().next().value as string);
    this.known.set(toolId, owner);
  }
}
