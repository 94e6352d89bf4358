// The embedded S3 stores small bodies (read into memory) and large ones (streamed) alike: bytes, md5 and metadata.
import { createHash, randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { S3_FOLDER } from "../../../functions/local/emulators.js";
import { emulatorBucket } from "../../support/emulator-bucket.js";

const BUCKET = "writes";
const fixture = emulatorBucket(BUCKET);

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
      const put = await fixture.s3.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: "application/zip", Metadata: { origin: label } }),
      );
      const md5 = createHash("md5").update(body).digest("hex");
      expect(put.ETag).toBe(`"${md5}"`);
      const head = await fixture.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect({ etag: head.ETag, type: head.ContentType, length: head.ContentLength, origin: head.Metadata?.origin }).toEqual({
        etag: `"${md5}"`,
        type: "application/zip",
        length: size,
        origin: label,
      });
      const read = await fixture.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(Buffer.from(await read.Body!.transformToByteArray()).equals(body)).toBe(true);
    });
  }

  it("leaves no temporary file behind", async () => {
    expect((await filesUnder(join(fixture.dataDir, S3_FOLDER))).filter((name) => name.endsWith(".partial"))).toEqual([]);
  });
});
