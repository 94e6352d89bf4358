import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import type { RegistryConfig } from "../config.js";
import { marshalConstructorKeys } from "./constructor-keys.js";
import { emulatorSigning } from "./emulator-signing.js";

/** Attempts per storage call (the SDK's standard retry mode backs off with jitter between them). */
export const DEFAULT_STORAGE_MAX_ATTEMPTS = 4;
/** A storage call that sends or receives nothing for this long fails (and is retried). */
export const DEFAULT_STORAGE_TIMEOUT_MS = 10_000;
const CONNECTION_TIMEOUT_MS = 3_000;

function resilience(config: RegistryConfig) {
  return {
    maxAttempts: config.storageMaxAttempts ?? DEFAULT_STORAGE_MAX_ATTEMPTS,
    retryMode: "standard",
    requestHandler: {
      connectionTimeout: CONNECTION_TIMEOUT_MS,
      requestTimeout: config.storageTimeoutMs ?? DEFAULT_STORAGE_TIMEOUT_MS,
      throwOnRequestTimeout: true,
    },
  } as const;
}

/**
 * S3 client for the configured endpoint. Checksums only WHEN_REQUIRED: the SDK's default
 * aws-chunked trailers get stored verbatim by s3rver and put CRCs of empty bodies into presigned URLs.
 * Unsigned for the embedded emulator (emulator-signing.ts).
 */
export function createS3Client(config: RegistryConfig): S3Client {
  return new S3Client({
    region: config.region,
    ...(config.s3Endpoint ? { endpoint: config.s3Endpoint, forcePathStyle: true } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    ...resilience(config),
    ...emulatorSigning(config, config.s3Endpoint, "s3"),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/** DynamoDB client for the configured endpoint, with the timeouts and retries above (unsigned for the embedded emulator). */
export function createDynamoClient(config: RegistryConfig): DynamoDBClient {
  return new DynamoDBClient({
    region: config.region,
    ...(config.dynamodbEndpoint ? { endpoint: config.dynamodbEndpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    ...resilience(config),
    ...emulatorSigning(config, config.dynamodbEndpoint, "dynamodb"),
  });
}

/** The document client every store uses; object keys named `constructor` reach storage intact (constructor-keys.ts). */
export function createDynamoDocumentClient(config: RegistryConfig): DynamoDBDocumentClient {
  return marshalConstructorKeys(
    DynamoDBDocumentClient.from(createDynamoClient(config), { marshallOptions: { removeUndefinedValues: true } }),
  );
}
