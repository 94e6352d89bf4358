// What a registry holds in storage, read straight from the emulators: for "nothing changed" checks.
import { createHash } from "node:crypto";
import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { LocalRegistry } from "../../../functions/local/start-local-registry.js";
import { canonicalJson } from "../../../functions/publish/release-digest.js";
import { SEARCH_INDEX_PREFIX } from "../../../functions/storage/index-snapshot-store.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";
import { snapshotAttribute, snapshotDigestAttribute } from "../../../functions/storage/revision-log.js";
import { REVISION_KEY } from "../../../functions/storage/table-schema.js";
import { TRUST_PARTITIONS } from "../../../functions/storage/trust-keys.js";

export interface StorageSnapshot {
  /** Every object key in the bucket but the search index's, sorted. */
  objects: string[];
  /** Every item key in the table except the revision counter and the audit log (which records refused writes too), sorted. */
  items: string[];
  /**
   * sha256 over every item's content (the revision counter and its change log included) and every
   * object's ETag, so an edit in place shows too. The audit log and a publisher token's write-rate
   * count are left out: they record every attempt, refused ones too (docs/design/publisher-trust.md). The
   * search index is left out here and above: the
   * background indexer rewrites it on its own schedule, after whichever earlier write it follows.
   */
  contents: string;
}

export async function storageSnapshot(local: LocalRegistry): Promise<StorageSnapshot> {
  const s3 = createS3Client(local.config);
  const db = createDynamoDocumentClient(local.config);
  try {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: local.config.bucketName }));
    const scanned = await db.send(new ScanCommand({ TableName: local.config.tableName }));
    const items = scanned.Items ?? [];
    const objects = (listed.Contents ?? []).filter((object) => !(object.Key ?? "").startsWith(SEARCH_INDEX_PREFIX));
    const contents = createHash("sha256");
    for (const line of items.filter(isState).map(withoutRateCount).map(withoutSnapshotMarks).filter(hasState).map(canonicalJson).sort())
      contents.update(`${line}\n`);
    for (const object of objects) contents.update(`${object.Key} ${object.ETag}\n`);
    return {
      objects: objects.map((object) => object.Key ?? "").sort(),
      items: items
        .filter((item) => item.tool_id !== REVISION_KEY.tool_id && item.tool_id !== TRUST_PARTITIONS.audit)
        .map((item) => `${String(item.tool_id)} ${String(item.version)}`)
        .sort(),
      contents: contents.digest("hex"),
    };
  } finally {
    s3.destroy();
    db.destroy();
  }
}

/** Not the audit log, which records refused writes too. */
function isState(item: Record<string, unknown>): boolean {
  return item.tool_id !== TRUST_PARTITIONS.audit;
}

/**
 * The revision item without the revisions (and digests) of the stored index snapshots: the background indexer
 * records them on its own schedule, as it rewrites the search index left out above (creating the
 * item when no write has yet: `hasState` then leaves it out).
 */
function withoutSnapshotMarks(item: Record<string, unknown>): Record<string, unknown> {
  if (item.tool_id !== REVISION_KEY.tool_id || item.version !== REVISION_KEY.version) return item;
  const {
    [snapshotAttribute("search")]: _search,
    [snapshotAttribute("listing")]: _listing,
    [snapshotDigestAttribute("search")]: _searchDigest,
    [snapshotDigestAttribute("listing")]: _listingDigest,
    ...rest
  } = item;
  return rest;
}

/** Not an item that holds nothing but its key. */
function hasState(item: Record<string, unknown>): boolean {
  return Object.keys(item).some((key) => key !== "tool_id" && key !== "version");
}

/** A token item without its write-rate window, which counts refused writes too. */
function withoutRateCount(item: Record<string, unknown>): Record<string, unknown> {
  if (item.tool_id !== TRUST_PARTITIONS.tokens) return item;
  const { rate_window: _window, rate_count: _count, ...rest } = item;
  return rest;
}
