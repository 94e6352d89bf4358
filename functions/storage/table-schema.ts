import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";

/**
 * The one DynamoDB table. Items (key `tool_id` + `version`):
 * - a version item per published `(tool_id, version)`: `{ entry, tool_archive_sha256,
 *   version_rank, release_digest }`, plus `state = "pending"` until its publish finished;
 * - a latest pointer per tool (`version = "#latest"`): a copy of the latest entry plus
 *   `latest_version`, `latest_order` (see `pointerOrder`) and `catalog`, which puts it in the listing index; while the
 *   tool is being deleted, the same key holds a tombstone (`deleting`: the versions to remove)
 *   that is in no index;
 * - internal bookkeeping (the revision counter) under partition keys that start with `#`.
 * No tool id or semver can start with `#`, and every route validates both before it reads storage,
 * so no request can reach an internal item (docs/storage.md, "Key space").
 */
export const TABLE_KEYS = { partition: "tool_id", sort: "version" } as const;
export const LATEST_SORT_KEY = "#latest";
export const INTERNAL_PARTITION_PREFIX = "#";
export const REVISION_KEY = { tool_id: `${INTERNAL_PARTITION_PREFIX}catalog`, version: "#revision" } as const;

/** Latest pointers only (sparse on `catalog`), sorted by tool id: listing with a cursor. */
export const LATEST_INDEX = { name: "latest-by-tool-id", partition: "catalog", sort: "tool_id" } as const;
export const LATEST_CATALOG = "tools";

/** Version items only (sparse on `tool_archive_sha256`): which entries reference an archive. */
export const ARCHIVE_INDEX = { name: "by-archive-sha256", partition: "tool_archive_sha256" } as const;

/**
 * Marks a placeholder pointer item that the doctor writes and deletes at once to clear a listing-index
 * entry naming a pointer the table does not hold (`LatestPointer.clearPhantomPointer`); readers take
 * such an item for no pointer at all.
 */
export const INDEX_REPAIR_ATTRIBUTE = "index_repair";

/**
 * Epoch seconds after which DynamoDB deletes an item (the table's time-to-live attribute): set on
 * audit events, so the audit log keeps `AUDIT_RETENTION_DAYS`. dynalite ignores it (the local log keeps everything).
 */
export const EXPIRES_AT_ATTRIBUTE = "expires_at";

/** The value of `state` on a version item whose publish has not finished. */
export const PENDING_STATE = "pending";
/** The value of `state` on a version item that `DELETE /tools/{id}/versions/{v}` is removing (hidden from readers). */
export const DELETING_STATE = "deleting";

export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: [
      { AttributeName: TABLE_KEYS.partition, AttributeType: "S" },
      { AttributeName: TABLE_KEYS.sort, AttributeType: "S" },
      { AttributeName: LATEST_INDEX.partition, AttributeType: "S" },
      { AttributeName: ARCHIVE_INDEX.partition, AttributeType: "S" },
    ],
    KeySchema: [
      { AttributeName: TABLE_KEYS.partition, KeyType: "HASH" },
      { AttributeName: TABLE_KEYS.sort, KeyType: "RANGE" },
    ],
    GlobalSecondaryIndexes: [
      {
        IndexName: LATEST_INDEX.name,
        KeySchema: [
          { AttributeName: LATEST_INDEX.partition, KeyType: "HASH" },
          { AttributeName: LATEST_INDEX.sort, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      },
      {
        IndexName: ARCHIVE_INDEX.name,
        KeySchema: [{ AttributeName: ARCHIVE_INDEX.partition, KeyType: "HASH" }],
        Projection: { ProjectionType: "KEYS_ONLY" },
      },
    ],
  };
}
