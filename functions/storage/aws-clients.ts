import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import type { RegistryConfig } from "../config.js";

/**
 * S3 client for the configured endpoint. Checksums only WHEN_REQUIRED: the SDK's default
 * aws-chunked trailers get stored verbatim by s3rver and put CRCs of empty bodies into presigned URLs.
 */
export function createS3Client(config: RegistryConfig): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.s3Endpoint ? { endpoint: config.s3Endpoint, forcePathStyle: true } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

export function createDynamoDocumentClient(config: RegistryConfig): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}
