// The embedded S3 honours `If-None-Match: *` on PutObject as S3 does, through the AWS SDK.
import { CopyObjectCommand, GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { isPreconditionFailure } from "../../../functions/storage/storage-errors.js";
import { emulatorBucket } from "../../support/emulator-bucket.js";

const BUCKET = "if-none-match";
const fixture = emulatorBucket(BUCKET);

const put = (key: string, body: string, ifNoneMatch?: "*") =>
  fixture.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ...(ifNoneMatch ? { IfNoneMatch: ifNoneMatch } : {}) }));
const read = async (key: string) => (await fixture.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body!.transformToString();

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
    await fixture.s3.send(new CopyObjectCommand({ Bucket: BUCKET, Key: "copy-target", CopySource: `${BUCKET}/copy-source` }));
    expect(await read("copy-target")).toBe("copied");
  });
});
