import { createHash, randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Readable, Transform } from "node:stream";
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
      const [, content] = await settled([
        mkdir(dirname(objectPath), { recursive: true }),
        inMemoryIfSmall(object.content, Number(object.metadata["content-length"])),
      ]);
      return await writeWhole(objectPath, content as Readable | Buffer, `${objectPath}.md5`, {
        [store.getResourcePath(object.bucket, object.key, "metadata.json")]: JSON.stringify(storedMetadata(object.metadata), null, 2),
      });
    } catch (error) {
      drain(object.content);
      throw answered(error);
    }
  };

  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const partPath = join(store.getResourcePath(bucket, undefined, "uploads"), uploadId, String(partNumber));
    try {
      await mkdir(dirname(partPath), { recursive: true });
      return await writeWhole(partPath, content, `${partPath}.md5`);
    } catch (error) {
      drain(content);
      throw answered(error);
    }
  };
}

/** Bodies up to this size are read into memory first: their md5 is then known before anything is written. */
const IN_MEMORY_BYTES = 1024 * 1024;

/** `content` as one Buffer when it declares at most IN_MEMORY_BYTES (an archive of a small tool), else as it came. */
async function inMemoryIfSmall(content: Readable | Buffer, declaredBytes: number): Promise<Readable | Buffer> {
  if (Buffer.isBuffer(content) || !(declaredBytes <= IN_MEMORY_BYTES)) return content;
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Writes `content` to `path`, beside it its md5 in `md5File` and the `sideFiles` (path → text), each
 * through a temporary file, side by side (the md5 after the object when it comes as a stream).
 * They are renamed into place only once all are written, the side files first, so a reader never
 * meets new bytes without their md5 and metadata. On failure every temporary file is removed.
 */
async function writeWhole(
  path: string,
  content: Readable | Buffer,
  md5File: string,
  sideFiles: Record<string, string> = {},
): Promise<{ size: number; md5: string }> {
  const written: [temporary: string, target: string][] = [];
  const temporary = (target: string) => {
    const file = `${target}.${randomUUID()}.partial`;
    written.push([file, target]);
    return file;
  };
  try {
    const objectFile = temporary(path);
    const bytes = Buffer.isBuffer(content) ? content : undefined;
    const known = bytes && createHash("md5").update(bytes).digest("hex");
    const [object] = await settled([
      bytes === undefined
        ? writeCounted(content as Readable, objectFile)
        : writeFile(objectFile, bytes).then(() => ({ size: bytes.length, md5: known! })),
      ...Object.entries(known === undefined ? sideFiles : { ...sideFiles, [md5File]: known }).map(([target, text]) =>
        writeFile(temporary(target), text),
      ),
    ]);
    const { size, md5 } = object as { size: number; md5: string };
    if (known === undefined) await writeFile(temporary(md5File), md5);
    await settled(written.slice(1).map(([file, target]) => rename(file, target)));
    await rename(objectFile, path);
    return { size, md5 };
  } catch (error) {
    await Promise.all(written.map(([file]) => rm(file, { force: true })));
    throw error;
  }
}

/** Streams `content` into `file`, counting its bytes and hashing them (md5, hex). */
async function writeCounted(content: Readable, file: string): Promise<{ size: number; md5: string }> {
  const md5 = createHash("md5");
  let size = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      md5.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  // `pipe`, not `pipeline`, from the request: a failed write must leave the request open, to be drained and answered.
  content.once("error", (error) => counted.destroy(error));
  content.pipe(counted);
  await pipeline(counted, createWriteStream(file));
  return { size, md5: md5.digest("hex") };
}

/** Every write settled (none left running when the temporary files are removed); rejects with the first failure. */
async function settled(writes: Promise<unknown>[]): Promise<unknown[]> {
  const results = await Promise.allSettled(writes);
  const failed = results.find((result) => result.status === "rejected");
  if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value);
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
