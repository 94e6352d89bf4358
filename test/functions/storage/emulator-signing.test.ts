// Requests to the embedded emulators skip SigV4; every other endpoint is signed as before.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateTableCommand, type DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { ListBucketsCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RegistryConfig } from "../../../functions/config.js";
import { startEmulators, type Emulators } from "../../../functions/local/emulators.js";
import { createDynamoClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { isLoopback } from "../../../functions/storage/emulator-signing.js";
import { emulatorConfig } from "../../support/emulator-config.js";

const CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

function configFor(endpoint: string, unsignedEndpoints: string[]): RegistryConfig {
  return {
    region: "eu-west-1",
    tableName: "t",
    bucketName: "b",
    s3Endpoint: endpoint,
    dynamodbEndpoint: endpoint,
    credentials: CREDENTIALS,
    unsignedEndpoints,
    archiveDelivery: "proxy",
    presignExpiresSeconds: 60,
    maxBundleBytes: 1024,
    cacheRevalidateMs: 0,
    storageMaxAttempts: 1,
  };
}

/** The Authorization header the client would send (captured after signing; nothing is sent). */
async function authorizationOf(client: DynamoDBClient | S3Client, command: ListTablesCommand | ListBucketsCommand): Promise<string> {
  let header = "";
  client.middlewareStack.addRelativeTo(
    (() => async (args: { request: { headers: Record<string, string> } }) => {
      header = args.request.headers.authorization ?? "";
      throw new Error("captured");
    }) as never,
    { name: "captureAuthorization", relation: "after", toMiddleware: "httpSigningMiddleware" },
  );
  await expect((client as DynamoDBClient).send(command as ListTablesCommand)).rejects.toThrow("captured");
  client.destroy();
  return header;
}

const PLACEHOLDER = /Signature=0{64}$/;
const REAL_SIGNATURE =
  /^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/eu-west-1\/(dynamodb|s3)\/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$/;

describe("which endpoints go unsigned", () => {
  it("a listed loopback endpoint gets a placeholder of the right shape, for DynamoDB and S3", async () => {
    const config = configFor("http://127.0.0.1:4567", ["http://127.0.0.1:4567"]);
    for (const [client, command, service] of [
      [createDynamoClient(config), new ListTablesCommand({}), "dynamodb"],
      [createS3Client(config), new ListBucketsCommand({}), "s3"],
    ] as const) {
      const header = await authorizationOf(client, command);
      expect(header).toMatch(PLACEHOLDER);
      expect(header).toContain(`/eu-west-1/${service}/aws4_request`);
    }
  });

  it("an endpoint off this machine is signed even when listed", async () => {
    for (const endpoint of ["http://10.1.2.3:8000", "https://dynamodb.eu-west-1.amazonaws.com", "http://127.0.0.1.example.com:80"]) {
      const header = await authorizationOf(createDynamoClient(configFor(endpoint, [endpoint])), new ListTablesCommand({}));
      expect(header, endpoint).toMatch(REAL_SIGNATURE);
      expect(header, endpoint).not.toMatch(PLACEHOLDER);
    }
  });

  it("a loopback endpoint that is not listed (another emulator, DynamoDB Local) is signed", async () => {
    const config = configFor("http://127.0.0.1:8000", ["http://127.0.0.1:8001"]);
    expect(await authorizationOf(createS3Client(config), new ListBucketsCommand({}))).toMatch(REAL_SIGNATURE);
    expect(await authorizationOf(createDynamoClient({ ...config, unsignedEndpoints: undefined }), new ListTablesCommand({}))).toMatch(
      REAL_SIGNATURE,
    );
  });

  it("knows loopback addresses from names that only look like them", () => {
    expect(["http://127.0.0.1:1", "http://127.8.9.10:1", "http://localhost:1", "http://[::1]:1"].map(isLoopback)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["http://127.0.0.1.nip.io:1", "http://192.168.1.1:1", "not a url", "http://[::2]:1"].map(isLoopback)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});

describe("the embedded emulators take unsigned requests", () => {
  let dataDir: string;
  let emulators: Emulators;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "agent-tools-unsigned-"));
    emulators = await startEmulators(dataDir);
  });

  afterAll(async () => {
    await emulators?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lists both of their endpoints, and both answer a client built from them", async () => {
    expect(emulators.unsignedEndpoints.sort()).toEqual([emulators.dynamodbEndpoint, emulators.s3Endpoint].sort());
    const config = emulatorConfig(emulators, { storageMaxAttempts: 1 });
    const dynamo = createDynamoClient(config);
    const s3 = createS3Client(config);
    try {
      await dynamo.send(
        new CreateTableCommand({
          TableName: "unsigned",
          KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
          AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
          BillingMode: "PAY_PER_REQUEST",
        }),
      );
      expect((await dynamo.send(new ListTablesCommand({}))).TableNames).toEqual(["unsigned"]);
      expect((await s3.send(new ListBucketsCommand({}))).Buckets).toEqual([]);
    } finally {
      dynamo.destroy();
      s3.destroy();
    }
  });
});
