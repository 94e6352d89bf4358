import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { SnapshotKind } from "./revision-log.js";

export const SEARCH_INDEX_PREFIX = "search-index/";
/** Where each kind's files and pointer live (the search index's keys are as they always were). */
const LAYOUTS: Record<SnapshotKind, { files: string; pointer: string }> = {
  search: { files: `${SEARCH_INDEX_PREFIX}snapshots/`, pointer: `${SEARCH_INDEX_PREFIX}latest.json` },
  listing: { files: `${SEARCH_INDEX_PREFIX}listing/`, pointer: `${SEARCH_INDEX_PREFIX}listing.json` },
};
/** The newest snapshots kept: a reader that has just read the previous pointer still finds its file. */
const KEPT_SNAPSHOTS = 2;

const gzipBytes = promisify(gzip);
const gunzipBytes = promisify(gunzip);

export interface IndexSnapshot {
  /** The catalog revision the snapshot reflects. */
  revision: number;
  bytes: Uint8Array;
}

/**
 * Search index snapshots in S3 (beside the archives, under `search-index/`): one gzipped file per
 * catalog revision (`snapshots/<revision>.gz`, write-once) and a pointer (`latest.json`) to the
 * newest. Written by the indexer only; read by every cold search instance. A pointer that lags
 * (two indexers racing) only means more revisions to apply from the log; a missing file reads as
 * no snapshot, and the reader then builds from the table. The listing (`kind` "listing", every
 * latest entry: functions/catalog/listing-snapshot.ts) is kept the same way under `listing/`.
 */
export class IndexSnapshotStore {
  private readonly layout: { files: string; pointer: string };

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    kind: SnapshotKind = "search",
  ) {
    this.layout = LAYOUTS[kind];
  }

  /** The revision the pointer names, without downloading the snapshot. */
  async latestRevision(): Promise<number | undefined> {
    const pointer = await this.getText(this.layout.pointer);
    if (pointer === undefined) return undefined;
    const revision = (JSON.parse(pointer) as { revision?: unknown }).revision;
    return typeof revision === "number" && Number.isSafeInteger(revision) ? revision : undefined;
  }

  async latest(): Promise<IndexSnapshot | undefined> {
    const revision = await this.latestRevision();
    return revision === undefined ? undefined : this.get(revision);
  }

  /** The snapshot of that revision (as the table's revision item names it), if it is still stored. */
  async get(revision: number): Promise<IndexSnapshot | undefined> {
    const compressed = await this.getBytes(this.key(revision));
    return compressed === undefined ? undefined : { revision, bytes: await gunzipBytes(compressed) };
  }

  /** Stores the snapshot, points `latest.json` at it, and drops all but the newest few. */
  async put(snapshot: IndexSnapshot): Promise<void> {
    const body = await gzipBytes(snapshot.bytes);
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.key(snapshot.revision), Body: body, ContentType: "application/gzip" }),
    );
    await this.s3.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.layout.pointer,
        Body: JSON.stringify({ revision: snapshot.revision, key: this.key(snapshot.revision) }),
        ContentType: "application/json",
        CacheControl: "no-cache",
      }),
    );
    await this.dropOlderThanNewest(KEPT_SNAPSHOTS);
  }

  private async dropOlderThanNewest(kept: number): Promise<void> {
    const listed = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.layout.files }));
    const keys = (listed.Contents ?? [])
      .map((object) => object.Key!)
      .sort()
      .reverse();
    for (const key of keys.slice(kept)) await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  private async getText(key: string): Promise<string | undefined> {
    const bytes = await this.getBytes(key);
    return bytes === undefined ? undefined : Buffer.from(bytes).toString("utf8");
  }

  private async getBytes(key: string): Promise<Uint8Array | undefined> {
    try {
      const result = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === "NoSuchKey" || name === "NotFound") return undefined;
      throw error;
    }
  }

  /** Zero-padded, so listing order is revision order. */
  private key(revision: number): string {
    return `${this.layout.files}${String(revision).padStart(16, "0")}.gz`;
  }
}
