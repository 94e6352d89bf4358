// Object keys that name JavaScript built-ins, which an input schema may legitimately use: the
// registry must store them exactly and read them back from the table, not from a cache.
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import type { LocalRegistry } from "../../../functions/local/start-local-registry.js";
import { createDynamoDocumentClient } from "../../../functions/storage/aws-clients.js";

/** `tool_parameters` values whose keys the AWS SDK's marshaller reads as type information. */
export const BUILT_IN_KEY_PARAMETERS: readonly Record<string, unknown>[] = [
  { type: "object", properties: { constructor: { type: "string" } } },
  { properties: { constructor: { name: "String" }, toString: { type: "string" } } },
  { constructor: { name: "Set" }, valueOf: 1, hasOwnProperty: true },
  { anyOf: [{ constructor: { name: "Map" }, b: [1, { constructor: "Object" }] }] },
];

/** The `entry` attribute of a version item, read straight from the table. */
export async function storedEntry(local: LocalRegistry, toolId: string, version: string): Promise<Record<string, unknown> | undefined> {
  const db = createDynamoDocumentClient(local.config);
  try {
    const { Item } = await db.send(
      new GetCommand({ TableName: local.config.tableName, Key: { tool_id: toolId, version }, ConsistentRead: true }),
    );
    return Item?.entry as Record<string, unknown> | undefined;
  } finally {
    db.destroy();
  }
}
