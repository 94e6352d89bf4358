// The embedded S3 stores small bodies (read into memory) and large ones (streamed) alike: bytes, md5 and metadata.
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3_FOLDER, startEmulators, type Emulators } from "../../../functions/local/emulators.js";
import { createS3Client } from "../../../functions/storage/aws-clients.js";

const BUCKET = "writes";
let dataDir: string;
let emulators: Emulators;
let s3: S3Client;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-s3rver-writes-"));
  emulators = await startEmulators(dataDir);
  s3 = createS3Client({
    region: "us-east-1",
    tableName: "unused",
    bucketName: BUCKET,
    s3Endpoint: emulators.s3Endpoint,
    credentials: emulators.credentials,
    unsignedEndpoints: emulators.unsignedEndpoints,
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

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map(String);
}

describe("PutObject on the embedded S3", () => {
  for (const [label, size] of [
    ["an empty body", 0],
    ["a small body, read into memory", 1_500],
    ["a body at the in-memory bound", 1024 * 1024],
    ["a large body, streamed", 3 * 1024 * 1024 + 7],
  ] as const) {
    it(`stores ${label} whole, with its md5 as ETag and its metadata`, async () => {
      const body = randomBytes(size);
      const key = `objects/${size}`;
      const put = await s3.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: "application/zip", Metadata: { origin: label } }),
      );
      const md5 = createHash("md5").update(body).digest("hex");
      expect(put.ETag).toBe(`"${md5}"`);
      const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect({ etag: head.ETag, type: head.ContentType, length: head.ContentLength, origin: head.Metadata?.origin }).toEqual({
        etag: `"${md5}"`,
        type: "application/zip",
        length: size,
        origin: label,
      });
      const read = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(Buffer.from(await read.Body!.transformToByteArray()).equals(body)).toBe(true);
    });
  }

  it("leaves no temporary file behind", async () => {
    expect((await filesUnder(join(dataDir, S3_FOLDER))).filter((name) => name.endsWith(".partial"))).toEqual([]);
  });
});
