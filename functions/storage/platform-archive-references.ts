import { BatchWriteCommand, GetCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { ARCHIVE_INDEX, INTERNAL_PARTITION_PREFIX } from "./table-schema.js";

/**
 * A binary tool built for several platforms has an archive per platform (docs/authoring.md#platforms).
 * The version item names the first in `tool_archive_sha256`, which the archive index covers; each
 * further one gets a reference item of its own, so the same index finds it and no delete takes an
 * archive another version still needs (docs/storage.md, "Archives"):
 * `{ tool_id: "#archive-ref:<tool id>", version: "<version>#<sha256>", tool_archive_sha256 }`.
 * Its partition starts with `#`, so no tool id or route reaches it. A reference is only a hint, like
 * every index entry: an archive counts as referenced when the version item it names lists it.
 */
export const ARCHIVE_REFERENCE_PREFIX = `${INTERNAL_PARTITION_PREFIX}archive-ref:`;

export function referenceKey(toolId: string, version: string, sha256: string): { tool_id: string; version: string } {
  return { tool_id: `${ARCHIVE_REFERENCE_PREFIX}${toolId}`, version: `${version}#${sha256}` };
}

/** The version a reference item's key names, or undefined for any other key (a version item's). */
export function referencedVersion(key: { toolId: string; version: string }): { toolId: string; version: string } | undefined {
  if (!key.toolId.startsWith(ARCHIVE_REFERENCE_PREFIX)) return undefined;
  const hash = key.version.lastIndexOf("#");
  return { toolId: key.toolId.slice(ARCHIVE_REFERENCE_PREFIX.length), version: key.version.slice(0, hash < 0 ? undefined : hash) };
}

/** Writes (`put`) or removes the reference items of `sha256s` for one version; both are idempotent. */
export async function writeReferences(
  db: DynamoDBDocumentClient,
  table: string,
  kind: "put" | "delete",
  toolId: string,
  version: string,
  sha256s: readonly string[],
): Promise<void> {
  for (let start = 0; start < sha256s.length; start += 25) {
    let requests = sha256s.slice(start, start + 25).map((sha256) => {
      const key = referenceKey(toolId, version, sha256);
      return kind === "put" ? { PutRequest: { Item: { ...key, [ARCHIVE_INDEX.partition]: sha256 } } } : { DeleteRequest: { Key: key } };
    });
    while (requests.length > 0) {
      const result = await db.send(new BatchWriteCommand({ RequestItems: { [table]: requests } }));
      requests = (result.UnprocessedItems?.[table] ?? []) as typeof requests;
    }
  }
}

/** Whether the version item of `toolId@version` lists `sha256` among its platform archives (a consistent read of the item itself). */
export async function versionListsArchive(
  db: DynamoDBDocumentClient,
  table: string,
  named: { toolId: string; version: string },
  sha256: string,
): Promise<boolean> {
  const result = await db.send(
    new GetCommand({
      TableName: table,
      Key: { tool_id: named.toolId, version: named.version },
      ConsistentRead: true,
      ProjectionExpression: "#entry.#archives",
      ExpressionAttributeNames: { "#entry": "entry", "#archives": "tool_platform_archives" },
    }),
  );
  const archives = (result.Item?.entry as { tool_platform_archives?: { sha256?: unknown }[] } | undefined)?.tool_platform_archives;
  return Array.isArray(archives) && archives.some((archive) => archive.sha256 === sha256);
}
