import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";

export const SEARCH_INDEX_PREFIX = "search-index/";
const SNAPSHOTS_PREFIX = `${SEARCH_INDEX_PREFIX}snapshots/`;
const POINTER_KEY = `${SEARCH_INDEX_PREFIX}latest.json`;
/** The newest snapshots kept: a reader that has just read the previous pointer still finds its file. */
const KEPT_SNAPSHOTS = 2;

export interface IndexSnapshot {
  /** The catalog revision the snapshot reflects. */
  revision: number;
  bytes: Uint8Array;
}

/** A snapshot downloaded into a file of its own. */
export interface DownloadedSnapshot {
  revision: number;
  file: string;
}

/**
 * Search index snapshots in S3 (beside the archives, under `search-index/`): one file per catalog
 * revision (`snapshots/<revision>.sqlite`, write-once) and a pointer (`latest.json`) to the
 * newest. Written by the indexer only; read by every cold search instance, which streams it into
 * a local file and opens that in place (no decompressing: the search index reads only the pages
 * its queries need, docs/search.md#the-index-as-an-artifact). A pointer that lags (two indexers
 * racing) only means more revisions to apply from the log; a missing file reads as no snapshot,
 * and the reader then builds from the table.
 */
export class IndexSnapshotStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  /** The revision the pointer names, without downloading the snapshot. */
  async latestRevision(): Promise<number | undefined> {
    return (await this.pointer())?.revision;
  }

  private async pointer(): Promise<{ revision: number; key: string } | undefined> {
    const text = await this.getText(POINTER_KEY);
    if (text === undefined) return undefined;
    const { revision, key } = JSON.parse(text) as { revision?: unknown; key?: unknown };
    if (typeof revision !== "number" || !Number.isSafeInteger(revision)) return undefined;
    return { revision, key: typeof key === "string" && key.startsWith(SNAPSHOTS_PREFIX) ? key : snapshotKey(revision) };
  }

  /**
   * The newest snapshot, written to `file`, when its revision is one `wanted` accepts (else
   * nothing is downloaded); undefined when there is none, or it went meanwhile.
   */
  async download(file: string, wanted: (revision: number) => boolean = () => true): Promise<DownloadedSnapshot | undefined> {
    const pointer = await this.pointer();
    if (pointer === undefined || !wanted(pointer.revision)) return undefined;
    const body = await this.getStream(pointer.key);
    if (body === undefined) return undefined;
    try {
      await pipeline(body, createWriteStream(file));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return { revision: pointer.revision, file };
  }

  /** Stores the snapshot, points `latest.json` at it, and drops all but the newest few. */
  async put(snapshot: IndexSnapshot): Promise<void> {
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: snapshotKey(snapshot.revision),
        Body: snapshot.bytes,
        ContentType: "application/vnd.sqlite3",
      }),
    );
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: POINTER_KEY,
        Body: JSON.stringify({ revision: snapshot.revision, key: snapshotKey(snapshot.revision) }),
        ContentType: "application/json",
        CacheControl: "no-cache",
      }),
    );
    await this.dropOlderThanNewest(KEPT_SNAPSHOTS);
  }

  private async dropOlderThanNewest(kept: number): Promise<void> {
    const listed = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: SNAPSHOTS_PREFIX }));
    const keys = (listed.Contents ?? [])
      .map((object) => object.Key!)
      .sort()
      .reverse();
    for (const key of keys.slice(kept)) await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  private async getText(key: string): Promise<string | undefined> {
    const body = await this.getStream(key);
    if (body === undefined) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }

  /** The object's body as it arrives, or undefined when there is no such object. */
  private async getStream(key: string): Promise<Readable | undefined> {
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body as Readable | undefined;
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === "NoSuchKey" || name === "NotFound") return undefined;
      throw error;
    }
  }
}

/** Zero-padded, so listing order is revision order. */
function snapshotKey(revision: number): string {
  return `${SNAPSHOTS_PREFIX}${String(revision).padStart(16, "0")}.sqlite`;
}
