import { createHash } from "node:crypto";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { KeyedLock } from "./keyed-lock.js";
import { isMissingObject, isPreconditionFailure } from "./storage-errors.js";

export const ARCHIVES_PREFIX = "archives/";
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** What `putOnce` found: nothing (written), a valid object (kept), or a damaged one (rewritten). */
export type ArchiveWrite = "written" | "present" | "repaired";

/** One object under `archives/`, as listed (for the doctor). */
export interface ArchiveObject {
  sha256: string;
  size: number;
  lastModified: Date;
}

/** A page of `ArchiveStore.listPage`: `lastKey` is where the next page starts. */
export interface ArchivePage {
  objects: ArchiveObject[];
  lastKey?: string;
  more: boolean;
}

export interface ArchiveStoreOptions {
  /** Storage honours `If-None-Match: *` on PutObject (real S3); otherwise a HEAD decides first. */
  conditionalWrites?: boolean;
}

/**
 * Tool archives in S3, content-addressed as `archives/<sha256>` and written once: an existing
 * object is never overwritten unless its length or sha256 is wrong (a write cut short by a crash),
 * and bytes are only handed out after their sha256 matched (docs/storage.md, "Archives").
 */
export class ArchiveStore {
  /** Same-hash operations of this process run in turn (see `keyed-lock.ts`). */
  private readonly lock = new KeyedLock();
  private readonly conditionalWrites: boolean;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    options: ArchiveStoreOptions = {},
  ) {
    this.conditionalWrites = options.conditionalWrites ?? false;
  }

  static key(sha256: string): string {
    return `${ARCHIVES_PREFIX}${sha256}`;
  }

  /** Stores `bytes` (whose sha256 is `sha256`) unless a valid copy is already there. */
  putOnce(sha256: string, bytes: Uint8Array): Promise<ArchiveWrite> {
    return this.lock.run(sha256, async () => {
      if (this.conditionalWrites) {
        if (await this.write(sha256, bytes, true)) return "written";
      } else if ((await this.headSize(sha256)) === undefined) {
        await this.write(sha256, bytes, false);
        return "written";
      }
      if ((await this.readVerified(sha256, bytes.byteLength)) !== undefined) return "present";
      await this.write(sha256, bytes, false);
      return "repaired";
    });
  }

  /** The archive's bytes once their sha256 matched, or undefined when absent or damaged. */
  get(sha256: string): Promise<Uint8Array | undefined> {
    return this.lock.run(sha256, () => this.readVerified(sha256));
  }

  /** Whether a valid object (right sha256) is stored under this hash. */
  async isValid(sha256: string): Promise<boolean> {
    return (await this.get(sha256)) !== undefined;
  }

  /**
   * Whether storage itself vouches for the object's sha256: S3 checked the `ChecksumSHA256` that
   * `putOnce` sent and returns it on HEAD. False when it cannot say (s3rver keeps no checksums).
   */
  async storageVerified(sha256: string): Promise<boolean> {
    try {
      const head = await this.s3.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: ArchiveStore.key(sha256), ChecksumMode: "ENABLED" }),
      );
      return head.ChecksumSHA256 === Buffer.from(sha256, "hex").toString("base64");
    } catch (error) {
      if (isMissingObject(error)) return false;
      throw error;
    }
  }

  exists(sha256: string): Promise<boolean> {
    return this.lock.run(sha256, async () => (await this.headSize(sha256)) !== undefined);
  }

  delete(sha256: string): Promise<void> {
    return this.lock.run(sha256, async () => {
      await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: ArchiveStore.key(sha256) }));
    });
  }

  /** The stored object's size, or undefined when there is none (one HEAD). */
  storedSize(sha256: string): Promise<number | undefined> {
    return this.lock.run(sha256, () => this.headSize(sha256));
  }

  /** Every archive object, page by page (other keys under the prefix, such as folder markers, are skipped). */
  async *list(): AsyncGenerator<ArchiveObject> {
    let page: ArchivePage | undefined;
    do {
      page = await this.listPage(page?.lastKey);
      yield* page.objects;
    } while (page.more);
  }

  /** One page of archive objects in key order, those after the key `startAfter` when given (a scan that resumes). */
  async listPage(startAfter?: string, limit = 1000): Promise<ArchivePage> {
    const page = await this.s3.send(
      new ListObjectsV2Command({
        Bucket: this.bucket,
        Prefix: ARCHIVES_PREFIX,
        MaxKeys: limit,
        ...(startAfter ? { StartAfter: startAfter } : {}),
      }),
    );
    const objects: ArchiveObject[] = [];
    for (const object of page.Contents ?? []) {
      const sha256 = (object.Key ?? "").slice(ARCHIVES_PREFIX.length);
      if (!SHA256_HEX.test(sha256)) continue;
      objects.push({ sha256, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) });
    }
    const lastKey = page.Contents?.at(-1)?.Key;
    return { objects, ...(lastKey === undefined ? {} : { lastKey }), more: page.IsTruncated === true };
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

  /** PutObject; with `onlyIfAbsent`, false when an object already exists (nothing written). */
  private async write(sha256: string, bytes: Uint8Array, onlyIfAbsent: boolean): Promise<boolean> {
    try {
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: ArchiveStore.key(sha256),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: "application/octet-stream",
          // S3 recomputes it and refuses a body that arrived damaged.
          ChecksumSHA256: Buffer.from(sha256, "hex").toString("base64"),
          ...(onlyIfAbsent ? { IfNoneMatch: "*" } : {}),
        }),
      );
      return true;
    } catch (error) {
      if (onlyIfAbsent && isPreconditionFailure(error)) return false;
      throw error;
    }
  }

  private async headSize(sha256: string): Promise<number | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: ArchiveStore.key(sha256) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
  }

  private async readVerified(sha256: string, expectedSize?: number): Promise<Uint8Array | undefined> {
    let bytes: Uint8Array;
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: ArchiveStore.key(sha256) }));
      bytes = result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (isMissingObject(error)) return undefined;
      throw error;
    }
    if (expectedSize !== undefined && bytes.byteLength !== expectedSize) return undefined;
    return createHash("sha256").update(bytes).digest("hex") === sha256 ? bytes : undefined;
  }
}
