import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { queryAll } from "./query-all.js";
import { isConditionFailure } from "./storage-errors.js";
import { TRUST_PARTITIONS } from "./trust-keys.js";

/** A publisher's signing key as `GET /publishers/{name}/keys` lists it. */
export interface PublisherKey {
  key_id: string;
  publisher: string;
  public_key: string;
  created_at: string;
  revoked_at?: string;
}

/** Thrown by `register` when another publisher registered the same key. */
export class KeyTakenError extends Error {
  constructor(readonly owner: string) {
    super(`key registered by ${owner}`);
    this.name = "KeyTakenError";
  }
}

const KEY = (keyId: string) => ({ tool_id: TRUST_PARTITIONS.keys, version: keyId });

/**
 * Publishers' ed25519 public keys (`#keys`, key id → publisher, PEM). A key belongs to one
 * publisher only, so a signature names its signer by its key id alone.
 */
export class KeyStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(keyId: string): Promise<PublisherKey | undefined> {
    const result = await this.db.send(new GetCommand({ TableName: this.table, Key: KEY(keyId), ConsistentRead: true }));
    return result.Item === undefined ? undefined : toKey(result.Item);
  }

  /** Registers `key` (again: the stored one is returned unchanged); `created` says which. */
  async register(key: PublisherKey): Promise<{ key: PublisherKey; created: boolean }> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...KEY(key.key_id), ...key },
          ConditionExpression: "attribute_not_exists(tool_id)",
        }),
      );
      return { key, created: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const stored = await this.get(key.key_id);
    if (stored === undefined) return this.register(key); // removed in between: cannot happen today (keys are only revoked)
    if (stored.publisher !== key.publisher) throw new KeyTakenError(stored.publisher);
    return { key: stored, created: false };
  }

  /** Every key of `publisher`, oldest first. */
  async list(publisher: string): Promise<PublisherKey[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: "tool_id = :partition",
      FilterExpression: "publisher = :publisher",
      ExpressionAttributeValues: { ":partition": TRUST_PARTITIONS.keys, ":publisher": publisher },
      ConsistentRead: true,
    });
    return items.map(toKey).sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  }

  /** Revokes a key of `publisher` (again: keeps the first time); undefined when it has no such key. */
  async revoke(publisher: string, keyId: string, now: string): Promise<PublisherKey | undefined> {
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: KEY(keyId),
          UpdateExpression: "SET revoked_at = :now",
          ConditionExpression: "publisher = :publisher AND attribute_not_exists(revoked_at)",
          ExpressionAttributeValues: { ":now": now, ":publisher": publisher },
          ReturnValues: "ALL_NEW",
        }),
      );
      return toKey(result.Attributes ?? {});
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const stored = await this.get(keyId);
      return stored?.publisher === publisher ? stored : undefined;
    }
  }
}

function toKey(item: Record<string, unknown>): PublisherKey {
  return {
    key_id: String(item.version),
    publisher: String(item.publisher),
    public_key: String(item.public_key),
    created_at: String(item.created_at),
    ...(typeof item.revoked_at === "string" ? { revoked_at: item.revoked_at } : {}),
  };
}
