import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import S3Error from "s3rver/lib/models/error.js";
import S3Object from "s3rver/lib/models/object.js";
import type S3rver from "s3rver";
import type { S3rverObject } from "s3rver";
import { isDiskFull, STORAGE_FULL_CODE } from "../storage/storage-errors.js";

/** Temporary files a write goes through, renamed into place once whole (`repair-emulator-files.ts` removes leftovers). */
export const PARTIAL_FILE = /\.[0-9a-f-]{36}\.partial$/;

/**
 * s3rver's filesystem store writes objects and parts through a write stream with no 'error'
 * listener, so one failed write (ENOSPC on a full disk) is an unhandled 'error' event that ends
 * the process, and a write cut short leaves a truncated object behind. The store's two stream
 * writes, `putObject` and `putPart`, are replaced on s3rver's store instance by ones that write
 * each file to a temporary name beside it and rename it into place once complete, so a failed
 * write leaves nothing (the previous object, if any, stays whole) and is answered: a full disk as
 * 507 `InsufficientStorage` (storage-errors.ts), anything else as a 500 the SDK retries. The
 * store's other writes are single awaited calls whose errors s3rver answers itself. Layout and
 * metadata are s3rver's own (`metadata.json` keeps the headers `S3Object.ALLOWED_METADATA` names
 * and every `x-amz-meta-*`). Nothing in node_modules changes.
 */
export function guardS3rverWrites(s3: S3rver, onDiskFull: () => void): void {
  const { store } = s3;
  const answered = (error: unknown): S3Error => {
    if (error instanceof S3Error) return error;
    if (!isDiskFull(error)) return new S3Error("InternalError", `The S3 emulator could not store the object: ${(error as Error).message}`);
    onDiskFull();
    const full = new S3Error(STORAGE_FULL_CODE, "The disk of the S3 emulator's data is full; nothing was stored.");
    full.status = 507;
    return full;
  };

  store.putObject = async (object: S3rverObject) => {
    const objectPath = store.getResourcePath(object.bucket, object.key, "object");
    try {
      await mkdir(dirname(objectPath), { recursive: true });
      return await writeWhole(objectPath, object.content, (md5) => ({
        [`${objectPath}.md5`]: md5,
        [store.getResourcePath(object.bucket, object.key, "metadata.json")]: JSON.stringify(storedMetadata(object.metadata), null, 2),
      }));
    } catch (error) {
      drain(object.content);
      throw answered(error);
    }
  };

  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const partPath = join(store.getResourcePath(bucket, undefined, "uploads"), uploadId, String(partNumber));
    try {
      await mkdir(dirname(partPath), { recursive: true });
      return await writeWhole(partPath, content, (md5) => ({ [`${partPath}.md5`]: md5 }));
    } catch (error) {
      drain(content);
      throw answered(error);
    }
  };
}

/**
 * Writes `content` to `path`, and the side files `sideFiles(md5)` names, each through a temporary
 * file; renamed into place only once all are written, the side files first, so a reader never
 * meets new bytes without their md5 and metadata. On failure every temporary file is removed.
 */
async function writeWhole(
  path: string,
  content: Readable | Buffer,
  sideFiles: (md5: string) => Record<string, string>,
): Promise<{ size: number; md5: string }> {
  const temporary = (target: string) => `${target}.${randomUUID()}.partial`;
  const written: [temporary: string, target: string][] = [[temporary(path), path]];
  try {
    const md5 = createHash("md5");
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
    // `pipe`, not `pipeline`, from the request: a failed write must leave the request open, to be drained and answered.
    source.once("error", (error) => counted.destroy(error));
    source.pipe(counted);
    await pipeline(counted, createWriteStream(written[0]![0]));
    const digest = md5.digest("hex");
    for (const [target, text] of Object.entries(sideFiles(digest))) {
      const file = temporary(target);
      written.push([file, target]);
      await writeFile(file, text);
    }
    for (const [file, target] of [...written.slice(1), written[0]!]) await rename(file, target);
    return { size, md5: digest };
  } catch (error) {
    await Promise.all(written.map(([file]) => rm(file, { force: true })));
    throw error;
  }
}

/** The headers s3rver keeps with an object (its `putMetadata`). */
function storedMetadata(metadata: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(metadata).filter(([name]) => S3Object.ALLOWED_METADATA.includes(name) || name.startsWith("x-amz-meta-")),
  );
}

/** Reads and discards what is left of a request body, so the error can be answered on the same connection. */
function drain(content: Readable | Buffer): void {
  if (!Buffer.isBuffer(content)) content.resume();
}
