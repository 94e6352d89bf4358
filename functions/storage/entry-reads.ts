import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { PublishedEntry } from "../entry/published-entry.js";
import { versionRank } from "../entry/version-rank.js";
import { isToolId } from "../validate/tool-id.js";
import { assertToolId } from "./entry-table.js";
import { indexQueryInput } from "./index-query.js";
import { isListed } from "./latest-pointer-item.js";
import { queryAll } from "./query-all.js";
import { DELETING_STATE, LATEST_CATALOG, LATEST_INDEX, LATEST_SORT_KEY, PENDING_STATE } from "./table-schema.js";
import { PARTITION_PROJECTION, summarisePartition, type ToolPartition } from "./tool-partition.js";

/**
 * The tool id ranges that listing every latest entry reads at once: [from, to), the first open
 * below and the last open above, so every id is in exactly one. Bounds at initials that split a
 * catalogue of English names roughly evenly (ids start with a letter or digit: validate/tool-id.ts).
 */
const LATEST_RANGES: readonly [from: string | undefined, to: string | undefined][] = [
  [undefined, "A"],
  ["A", "a"],
  ["a", "d"],
  ["d", "g"],
  ["g", "l"],
  ["l", "p"],
  ["p", "s"],
  ["s", "v"],
  ["v", undefined],
];

/** A version item as stored: the entry plus the publish bookkeeping beside it. */
export interface StoredVersion {
  entry: PublishedEntry;
  /** Its publish has not finished (see `markPublished`). */
  pending: boolean;
  /** A delete of this version has started (see `markDeleting`): readers no longer see it. */
  deleting: boolean;
  /** Identifies the uploaded release (see `release-digest.ts`); absent on items older than it. */
  releaseDigest?: string;
}

/** Reads of tool entries: single versions, a tool's partition, every latest entry (layout in `table-schema.ts`). */
export class EntryReads {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /** The latest pointer's copy of the entry, as listed; readers use `CatalogReader.latest`, which repairs. */
  async getLatest(toolId: string): Promise<PublishedEntry | undefined> {
    if (!isToolId(toolId)) return undefined;
    return this.getEntry(toolId, LATEST_SORT_KEY);
  }

  /** A version as readers see it: none while a delete of it runs. */
  async getVersion(toolId: string, version: string): Promise<PublishedEntry | undefined> {
    const stored = await this.getStoredVersion(toolId, version);
    return stored === undefined || stored.deleting ? undefined : stored.entry;
  }

  async getStoredVersion(toolId: string, version: string): Promise<StoredVersion | undefined> {
    if (!isToolId(toolId) || version.startsWith("#")) return undefined;
    const result = await this.db.send(new GetCommand({ TableName: this.table, Key: { tool_id: toolId, version }, ConsistentRead: true }));
    const item = result.Item;
    if (item === undefined || item.entry === undefined) return undefined;
    return {
      entry: item.entry as PublishedEntry,
      pending: item.state === PENDING_STATE,
      deleting: item.state === DELETING_STATE,
      ...(typeof item.release_digest === "string" ? { releaseDigest: item.release_digest } : {}),
    };
  }

  /** Everything under one tool id in one consistent Query, entries left out. */
  async readPartition(toolId: string): Promise<ToolPartition> {
    assertToolId(toolId);
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: "tool_id = :id",
      ExpressionAttributeValues: { ":id": toolId },
      ProjectionExpression: PARTITION_PROJECTION.expression,
      ExpressionAttributeNames: { ...PARTITION_PROJECTION.names },
      ConsistentRead: true,
    });
    return summarisePartition(toolId, items);
  }

  /**
   * Every version a reader may see (none a delete has claimed), newest (highest semver) first;
   * yanked ones only with `includeYanked`.
   */
  async listVersions(toolId: string, options: { includeYanked?: boolean } = {}): Promise<PublishedEntry[]> {
    if (!isToolId(toolId)) return [];
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: "tool_id = :id",
      ExpressionAttributeValues: { ":id": toolId },
      ConsistentRead: true,
    });
    const pointer = items.find((item) => item.version === LATEST_SORT_KEY);
    const doomed = new Set(Array.isArray(pointer?.deleting) ? pointer.deleting.map(String) : []);
    return items
      .filter((item) => item.version !== LATEST_SORT_KEY && !doomed.has(String(item.version)) && item.state !== DELETING_STATE)
      .map((item) => item.entry as PublishedEntry)
      .filter((entry) => options.includeYanked === true || entry.status !== "yanked")
      .sort((a, b) => (versionRank(a.version) < versionRank(b.version) ? 1 : versionRank(a.version) > versionRank(b.version) ? -1 : 0));
  }

  /**
   * Every latest entry, in tool id order. Only the indexer makes it regularly (readers start from
   * the listing it stores: catalog/latest-catalog.ts).
   */
  async listAllLatest(): Promise<PublishedEntry[]> {
    const byRange: PublishedEntry[][] = LATEST_RANGES.map(() => []);
    await this.forEachLatestPage((entries, range) => byRange[range]!.push(...entries));
    return byRange.flat();
  }

  /**
   * Every latest entry, page by page as the pages arrive (for building the search index while
   * the rest is still being read): `LATEST_RANGES` of tool ids are read at once, each in tool id
   * order, so a catalogue comes in as many round trips as its largest range needs.
   */
  async forEachLatestPage(onPage: (entries: PublishedEntry[], range: number) => void): Promise<void> {
    const base = indexQueryInput(this.table, LATEST_INDEX, LATEST_CATALOG);
    await Promise.all(
      LATEST_RANGES.map(async ([from, to], range) => {
        const conditions = [
          base.KeyConditionExpression,
          from === undefined ? "#sort < :to" : to === undefined ? "#sort >= :from" : "#sort BETWEEN :from AND :to",
        ];
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await this.db.send(
            new QueryCommand({
              ...base,
              KeyConditionExpression: conditions.join(" AND "),
              ExpressionAttributeNames: { ...base.ExpressionAttributeNames, "#sort": LATEST_INDEX.sort },
              ExpressionAttributeValues: {
                ...base.ExpressionAttributeValues,
                ...(from === undefined ? {} : { ":from": from }),
                ...(to === undefined ? {} : { ":to": to }),
              },
              ExclusiveStartKey: startKey,
            }),
          );
          // BETWEEN takes its upper end too: that id belongs to the next range.
          onPage(
            (page.Items ?? []).filter((item) => item.tool_id !== to && isListed(item)).map((item) => item.entry as PublishedEntry),
            range,
          );
          startKey = page.LastEvaluatedKey;
        } while (startKey);
      }),
    );
  }

  private async getEntry(toolId: string, sortKey: string): Promise<PublishedEntry | undefined> {
    const result = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { tool_id: toolId, version: sortKey }, ConsistentRead: true }),
    );
    return result.Item?.entry as PublishedEntry | undefined;
  }
}
