import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from "@aws-sdk/client-dynamodb";
import { CreateBucketCommand, HeadBucketCommand } from "@aws-sdk/client-s3";
import type { RegistryConfig } from "../config.js";
import { createS3Client } from "../storage/aws-clients.js";
import { createTableInput } from "../storage/table-schema.js";

/** Creates the table and the bucket when missing (embedded default only; on AWS the stack owns them). */
export async function provisionStorage(config: RegistryConfig): Promise<void> {
  const dynamo = new DynamoDBClient({
    region: config.region,
    endpoint: config.dynamodbEndpoint,
    ...(config.credentials ? { credentials: config.credentials } : {}),
  });
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
      await s3.send(new CreateBucketCommand({ Bucket: config.bucketName }));
    }
  } finally {
    dynamo.destroy();
    s3.destroy();
  }
}
