import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import type { SnapshotKind } from "./revision-log.js";

export const SEARCH_INDEX_PREFIX = "search-index/";

interface SnapshotLayout {
  files: string;
  pointer: string;
  /** The file name's ending, and whether the bytes are gzipped at rest. */
  extension: string;
  gzipped: boolean;
  contentType: string;
}

/**
 * Where each kind's files and pointer live. The search index is its SQLite file itself, so a reader
 * opens what it downloaded in place (docs/search.md#the-index-as-an-artifact); the listing (every
 * latest entry: functions/catalog/listing-snapshot.ts) is JSON, gzipped.
 */
const LAYOUTS: Record<SnapshotKind, SnapshotLayout> = {
  search: {
    files: `${SEARCH_INDEX_PREFIX}snapshots/`,
    pointer: `${SEARCH_INDEX_PREFIX}latest.json`,
    extension: "sqlite",
    gzipped: false,
    contentType: "application/vnd.sqlite3",
  },
  listing: {
    files: `${SEARCH_INDEX_PREFIX}listing/`,
    pointer: `${SEARCH_INDEX_PREFIX}listing.json`,
    extension: "gz",
    gzipped: true,
    contentType: "application/gzip",
  },
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

/** A snapshot as read back: with the sha256 of its bytes, which readers compare with the one the revision item names. */
export interface ReadSnapshot extends IndexSnapshot {
  sha256: string;
}

/** A snapshot downloaded into a file of its own, and the sha256 of its bytes. */
export interface DownloadedSnapshot {
  revision: number;
  file: string;
  sha256: string;
}

/**
 * Index snapshots in S3 (beside the archives, under `search-index/`): one file per catalog revision
 * (write-once) and a pointer to the newest, per kind. Written by the indexer only, which records
 * each stored revision in the table's revision item; readers ask only for the revision that item
 * names, so S3 is not asked before the first store. A missing file reads as no snapshot, and the
 * reader then builds from the table.
 */
export class IndexSnapshotStore {
  private readonly layout: SnapshotLayout;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    kind: SnapshotKind = "search",
  ) {
    this.layout = LAYOUTS[kind];
  }

  /** The revision the pointer names, without downloading the snapshot. */
  async latestRevision(): Promise<number | undefined> {
    const body = await this.getStream(this.layout.pointer);
    if (body === undefined) return undefined;
    const revision = (JSON.parse((await readAll(body)).toString("utf8")) as { revision?: unknown }).revision;
    return typeof revision === "number" && Number.isSafeInteger(revision) ? revision : undefined;
  }

  /** The snapshot of that revision (as the table's revision item names it), if it is still stored. */
  async get(revision: number): Promise<ReadSnapshot | undefined> {
    const body = await this.getStream(this.key(revision));
    if (body === undefined) return undefined;
    const stored = await readAll(body);
    const bytes = this.layout.gzipped ? await gunzipBytes(stored) : stored;
    return { revision, bytes, sha256: snapshotDigest(bytes) };
  }

  /**
   * The snapshot of that revision streamed into `file` as stored, for an index that opens its file
   * in place; undefined when it went meanwhile.
   */
  async download(revision: number, file: string): Promise<DownloadedSnapshot | undefined> {
    const body = await this.getStream(this.key(revision));
    if (body === undefined) return undefined;
    // Hashed as it streams by (the search index is stored as is, so these are its bytes).
    const hash = createHash("sha256");
    body.on("data", (chunk: Buffer) => hash.update(chunk));
    try {
      await pipeline(body, createWriteStream(file));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return { revision, file, sha256: hash.digest("hex") };
  }

  /**
   * Stores the snapshot, points the pointer at it, and drops all but the newest few, and every one
   * above `tableRevision()` (the table's revision, read once stored, so a snapshot another indexer
   * just stored is not above it): those belong to another history of the table (it was restored
   * from a backup), and kept as the newest they would have the current one dropped.
   */
  async put(snapshot: IndexSnapshot, tableRevision: () => Promise<number>): Promise<void> {
    const body = this.layout.gzipped ? await gzipBytes(snapshot.bytes) : snapshot.bytes;
    await this.s3.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.key(snapshot.revision), Body: body, ContentType: this.layout.contentType }),
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
    await this.dropAllButNewest(KEPT_SNAPSHOTS, await tableRevision());
  }

  private async dropAllButNewest(kept: number, tableRevision: number): Promise<void> {
    const listed = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.layout.files }));
    const keys = (listed.Contents ?? [])
      .map((object) => object.Key!)
      .sort()
      .reverse();
    const ahead = this.key(tableRevision);
    const dropped = [...keys.filter((key) => key > ahead), ...keys.filter((key) => key <= ahead).slice(kept)];
    for (const key of dropped) await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
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

  /** Zero-padded, so listing order is revision order. */
  private key(revision: number): string {
    return `${this.layout.files}${String(revision).padStart(16, "0")}.${this.layout.extension}`;
  }
}

/** The sha256 (hex) of a snapshot's bytes, as the revision item names it. */
export function snapshotDigest(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
