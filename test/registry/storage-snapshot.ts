// What a registry holds in storage, read straight from the emulators: for "nothing changed" checks.
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { LocalRegistry } from "../../functions/local/start-local-registry.js";
import { createDynamoDocumentClient, createS3Client } from "../../functions/storage/aws-clients.js";
import { REVISION_KEY } from "../../functions/storage/table-schema.js";

export interface StorageSnapshot {
  /** Every object key in the bucket, sorted. */
  objects: string[];
  /** Every item key in the table except the revision counter, sorted. */
  items: string[];
}

export async function storageSnapshot(local: LocalRegistry): Promise<StorageSnapshot> {
  const s3 = createS3Client(local.config);
  const db = createDynamoDocumentClient(local.config);
  try {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: local.config.bucketName }));
    const scanned = await db.send(new ScanCommand({ TableName: local.config.tableName }));
    return {
      objects: (listed.Contents ?? []).map((object) => object.Key ?? "").sort(),
      items: (scanned.Items ?? [])
        .filter((item) => item.tool_id !== REVISION_KEY.tool_id)
        .map((item) => `${String(item.tool_id)} ${String(item.version)}`)
        .sort(),
    };
  } finally {
    s3.destroy();
    db.destroy();
  }
}
