// The embedded S3 honours `If-None-Match: *` on PutObject as S3 does, through the AWS SDK.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CopyObjectCommand, CreateBucketCommand, GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulators, type Emulators } from "../../../functions/local/emulators.js";
import { createS3Client } from "../../../functions/storage/aws-clients.js";
import { isPreconditionFailure } from "../../../functions/storage/storage-errors.js";

const BUCKET = "if-none-match";
let dataDir: string;
let emulators: Emulators;
let s3: S3Client;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-s3rver-"));
  emulators = await startEmulators(dataDir);
  s3 = createS3Client({
    region: "us-east-1",
    tableName: "unused",
    bucketName: BUCKET,
    s3Endpoint: emulators.s3Endpoint,
    credentials: emulators.credentials,
    archiveDelivery: "proxy",
    presignExpiresSeconds: 60,
    maxBundleBytes: 1024,
    cacheRevalidateMs: 0,
  });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(async () => {
  s3?.destroy();
  await emulators?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const put = (key: string, body: string, ifNoneMatch?: "*") =>
  s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ...(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}) }));
const read = async (key: string) => (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToString();

describe("PutObject with If-None-Match: *", () => {
  it("writes a key that holds nothing", async () => {
    await put("fresh", "first", "*");
    expect(await read("fresh")).toBe("first");
  });

  it("is 412 PreconditionFailed on a key that holds an object, and leaves the object as it was", async () => {
    await put("taken", "original");
    const refused = await put("taken", "replacement", "*").catch((error: unknown) => error);
    expect(isPreconditionFailure(refused)).toBe(true);
    expect((refused as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(412);
    expect(await read("taken")).toBe("original");
  });

  it("refuses again and again: the key keeps its first object", async () => {
    await put("repeat", "one", "*");
    for (const attempt of ["two", "three"]) expect(isPreconditionFailure(await put("repeat", attempt, "*").catch((e) => e))).toBe(true);
    expect(await read("repeat")).toBe("one");
  });
});

describe("everything else keeps s3rver's behaviour", () => {
  it("overwrites without the header", async () => {
    await put("plain", "old");
    await put("plain", "new");
    expect(await read("plain")).toBe("new");
  });

  it("copies onto an existing key", async () => {
    await put("copy-source", "copied");
    await put("copy-target", "before");
    await s3.send(new CopyObjectCommand({ Bucket: BUCKET, Key: "copy-target", CopySource: `${BUCKET}/copy-source` }));
    expect(await read("copy-target")).toBe("copied");
  });
});
