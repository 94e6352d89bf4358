import { CreateTableCommand, DescribeTableCommand, ResourceNotFoundException } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import type { RegistryConfig } from "../config.js";
import { ARCHIVES_PREFIX } from "../storage/archive-store.js";
import { createDynamoClient, createS3Client } from "../storage/aws-clients.js";
import { isMissingObject } from "../storage/storage-errors.js";
import { createTableInput } from "../storage/table-schema.js";
import { UPLOADS_PREFIX } from "../storage/upload-keys.js";

/**
 * s3rver removes a folder as soon as its last object is deleted, racing any concurrent put into
 * that folder: the put's file stream then fails unhandled and takes the whole process down. A
 * permanent marker object keeps each prefix's folder from ever becoming empty.
 */
export const FOLDER_MARKER_KEYS = [`${ARCHIVES_PREFIX}.keep`, `${UPLOADS_PREFIX}.keep`];

/**
 * Creates the table, the bucket and the folder markers when missing (embedded default only; on
 * AWS the stack owns the table and bucket, and S3 has no folders to lose). Writes nothing when all
 * are there, so a start on a full disk can still serve reads.
 */
export async function provisionStorage(config: RegistryConfig): Promise<void> {
  const dynamo = createDynamoClient(config);
  const s3 = createS3Client(config);
  try {
    try {
      await dynamo.send(new DescribeTableCommand({ TableName: config.tableName }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      await dynamo.send(new CreateTableCommand(createTableInput(config.tableName)));
    }
    try {
      await s3.send(new HeadBucketCommand({ Bucket: config.bucketName }));
    } catch {
      // A HEAD can fail on a folder a killed server left behind while the bucket is there: creating it again is then done.
      await s3.send(new CreateBucketCommand({ Bucket: config.bucketName })).catch((error: unknown) => {
        const name = (error as { name?: string }).name;
        if (name !== "BucketAlreadyExists" && name !== "BucketAlreadyOwnedByYou") throw error;
      });
    }
    for (const key of FOLDER_MARKER_KEYS) {
      try {
        await s3.send(new HeadObjectCommand({ Bucket: config.bucketName, Key: key }));
      } catch (error) {
        if (!isMissingObject(error)) throw error;
        await s3.send(new PutObjectCommand({ Bucket: config.bucketName, Key: key, Body: "", ContentLength: 0 }));
      }
    }
  } finally {
    dynamo.destroy();
    s3.destroy();
  }
}
