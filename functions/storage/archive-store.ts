import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { KeyedLock } from "./keyed-lock.js";

export const ARCHIVES_PREFIX = "archives/";

/**
 * Tool archives in S3, content-addressed as `archives/<sha256>`: the same bytes always land on the
 * same key, so a retried or concurrent upload can never corrupt another tool's archive.
 */
export class ArchiveStore {
  /** Same-hash operations of this process run in turn (see `keyed-lock.ts`). */
  private readonly lock = new KeyedLock();

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  static key(sha256: string): string {
    return `${ARCHIVES_PREFIX}${sha256}`;
  }

  put(sha256: string, bytes: Uint8Array): Promise<void> {
    return this.lock.run(sha256, async () => {
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: ArchiveStore.key(sha256),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: "application/octet-stream",
        }),
      );
    });
  }

  /** The archive's bytes, or undefined when no object has that hash. */
  get(sha256: string): Promise<Uint8Array | undefined> {
    return this.lock.run(sha256, async () => {
      try {
        const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: ArchiveStore.key(sha256) }));
        return result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    });
  }

  exists(sha256: string): Promise<boolean> {
    return this.lock.run(sha256, async () => {
      try {
        await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: ArchiveStore.key(sha256) }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    });
  }

  delete(sha256: string): Promise<void> {
    return this.lock.run(sha256, async () => {
      await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: ArchiveStore.key(sha256) }));
    });
  }

  /** A short-lived GET URL that needs no credentials. */
  presignGet(sha256: string, expiresInSeconds: number, downloadName?: string): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: ArchiveStore.key(sha256),
      ...(downloadName ? { ResponseContentDisposition: `attachment; filename="${downloadName}"` } : {}),
    });
    return getSignedUrl(this.s3, command, { expiresIn: expiresInSeconds });
  }
}

function isMissing(error: unknown): boolean {
  const name = (error as { name?: string }).name;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return name === "NoSuchKey" || name === "NotFound" || status === 404;
}
