// dynalite's table definitions come from memory, and every change of a table is seen at once.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
} from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulators, type Emulators } from "../../../functions/local/emulators.js";
import { createDynamoClient } from "../../../functions/storage/aws-clients.js";
import { emulatorConfig } from "../../support/emulator-config.js";

let dataDir: string;
let emulators: Emulators;
let db: DynamoDBClient;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-table-cache-"));
  emulators = await startEmulators(dataDir);
  db = createDynamoClient(emulatorConfig(emulators, { storageMaxAttempts: 1 }));
});

afterAll(async () => {
  db?.destroy();
  await emulators?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Creates the table and waits until dynalite made it ACTIVE (a moment after it answered, even with `createTableMs: 0`). */
async function createTable(name: string, key: string): Promise<void> {
  await db.send(
    new CreateTableCommand({
      TableName: name,
      KeySchema: [{ AttributeName: key, KeyType: "HASH" }],
      AttributeDefinitions: [{ AttributeName: key, AttributeType: "S" }],
      BillingMode: "PAY_PER_REQUEST",
    }),
  );
  await activeTable(name);
}

async function activeTable(name: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const { Table } = await db.send(new DescribeTableCommand({ TableName: name }));
    if (Table?.TableStatus === "ACTIVE") return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`table ${name} did not become active`);
}

describe("dynalite's table definitions, read from memory", () => {
  it("a table deleted and created again with another key is used with its new key at once", async () => {
    await createTable("recreated", "id");
    await db.send(new PutItemCommand({ TableName: "recreated", Item: { id: { S: "a" } } }));
    await db.send(new DeleteTableCommand({ TableName: "recreated" }));
    await expect(activeTable("recreated")).rejects.toThrow(/not found/i);
    await expect(db.send(new PutItemCommand({ TableName: "recreated", Item: { id: { S: "b" } } }))).rejects.toThrow(
      /not found|non-existent/i,
    );
    await createTable("recreated", "name");
    await expect(db.send(new PutItemCommand({ TableName: "recreated", Item: { id: { S: "c" } } }))).rejects.toThrow(/key/i);
    await db.send(new PutItemCommand({ TableName: "recreated", Item: { name: { S: "d" } } }));
    const item = await db.send(new GetItemCommand({ TableName: "recreated", Key: { name: { S: "d" } } }));
    expect(item.Item).toEqual({ name: { S: "d" } });
  });

  it("a table created again with an index has it maintained by the very next write", async () => {
    await createTable("indexed", "id");
    await db.send(new PutItemCommand({ TableName: "indexed", Item: { id: { S: "before" }, colour: { S: "blue" } } }));
    await db.send(new DeleteTableCommand({ TableName: "indexed" }));
    await expect(activeTable("indexed")).rejects.toThrow(/not found/i);
    await db.send(
      new CreateTableCommand({
        TableName: "indexed",
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        AttributeDefinitions: [
          { AttributeName: "id", AttributeType: "S" },
          { AttributeName: "colour", AttributeType: "S" },
        ],
        GlobalSecondaryIndexes: [
          { IndexName: "by-colour", KeySchema: [{ AttributeName: "colour", KeyType: "HASH" }], Projection: { ProjectionType: "ALL" } },
        ],
        BillingMode: "PAY_PER_REQUEST",
      }),
    );
    await activeTable("indexed");
    await db.send(new PutItemCommand({ TableName: "indexed", Item: { id: { S: "after" }, colour: { S: "blue" } } }));
    const blue = await db.send(
      new QueryCommand({
        TableName: "indexed",
        IndexName: "by-colour",
        KeyConditionExpression: "colour = :c",
        ExpressionAttributeValues: { ":c": { S: "blue" } },
      }),
    );
    expect(blue.Items?.map((item) => item.id?.S)).toEqual(["after"]);
  });

  it("answers each read with its own copy: concurrent writes of one table all land", async () => {
    await createTable("busy", "id");
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => db.send(new PutItemCommand({ TableName: "busy", Item: { id: { S: `item-${i}` } } }))),
    );
    const reads = await Promise.all(
      Array.from({ length: 40 }, (_, i) => db.send(new GetItemCommand({ TableName: "busy", Key: { id: { S: `item-${i}` } } }))),
    );
    expect(reads.every((read, i) => read.Item?.id?.S === `item-${i}`)).toBe(true);
  });
});
