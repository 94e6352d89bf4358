import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type QueryCommandInput,
} from "@aws-sdk/lib-dynamodb";
import type { CatalogChange } from "../catalog/catalog-change.js";
import type { PublishedEntry } from "../catalog/published-entry.js";
import { compareVersions } from "../catalog/compare-versions.js";
import { indexQueryInput } from "./index-query.js";
import { changeSlot, RevisionLog } from "./revision-log.js";
import {
  ARCHIVE_INDEX,
  LATEST_CATALOG,
  LATEST_INDEX,
  LATEST_SORT_KEY,
  REVISION_KEY,
} from "./table-schema.js";

/** Thrown by `putVersion` when the `(tool_id, version)` pair is already published. */
export class VersionExistsError extends Error {
  constructor(
    readonly toolId: string,
    readonly version: string,
  ) {
    super(`${toolId}@${version} already exists`);
    this.name = "VersionExistsError";
  }
}

export interface LatestFilter {
  type?: string;
  tag?: string;
  /** ISO timestamp: only entries with `updated_at >= updatedSince`. */
  updatedSince?: string;
}

export interface LatestPage {
  entries: PublishedEntry[];
  /** Whether more entries follow the last one (pass its tool id as `startAfter` for them). */
  more: boolean;
}

const MAX_LATEST_UPDATE_ATTEMPTS = 8;

/**
 * ToolEntries in DynamoDB (layout in `table-schema.ts`). No transactions (dynalite has none):
 * uniqueness comes from conditional puts, the latest pointer from optimistic conditional updates.
 */
export class EntryStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async getLatest(toolId: string): Promise<PublishedEntry | undefined> {
    return this.getEntry(toolId, LATEST_SORT_KEY);
  }

  async getVersion(toolId: string, version: string): Promise<PublishedEntry | undefined> {
    if (version.startsWith("#")) return undefined;
    return this.getEntry(toolId, version);
  }

  /** Publishes a new version; exactly one of many concurrent puts of the same pair succeeds. */
  async putVersion(entry: PublishedEntry): Promise<void> {
    try {
      await this.db.send(new PutCommand({ ...this.versionItem(entry), ConditionExpression: "attribute_not_exists(tool_id)" }));
    } catch (error) {
      if (isConditionFailure(error)) throw new VersionExistsError(entry.tool_id, entry.version);
      throw error;
    }
  }

  /** Makes `entry` the latest when it is the highest semver of its tool (optimistic, retried). */
  async promoteIfNewest(entry: PublishedEntry): Promise<boolean> {
    for (let attempt = 0; attempt < MAX_LATEST_UPDATE_ATTEMPTS; attempt++) {
      const current = await this.getLatestPointer(entry.tool_id);
      if (current && current.latest_version !== entry.version && compareVersions(current.latest_version, entry.version) > 0) {
        return false;
      }
      if (await this.writeLatest(entry, current?.latest_version)) return true;
    }
    throw new Error(`could not update the latest pointer of ${entry.tool_id} after ${MAX_LATEST_UPDATE_ATTEMPTS} attempts`);
  }

  /**
   * Replaces the stored entry of one version, and the latest pointer when it points at that
   * version. Returns false when the version does not exist.
   */
  async replaceVersion(entry: PublishedEntry): Promise<boolean> {
    try {
      await this.db.send(new PutCommand({ ...this.versionItem(entry), ConditionExpression: "attribute_exists(tool_id)" }));
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    // Only rewrite the pointer while it still names this version; a newer upload wins.
    await this.writeLatest(entry, entry.version);
    return true;
  }

  /** Every version of a tool, newest (highest semver) first. */
  async listVersions(toolId: string): Promise<PublishedEntry[]> {
    const items = await this.queryAll({
      TableName: this.table,
      KeyConditionExpression: "tool_id = :id",
      ExpressionAttributeValues: { ":id": toolId },
      ConsistentRead: true,
    });
    return items
      .filter((item) => item.version !== LATEST_SORT_KEY)
      .map((item) => item.entry as PublishedEntry)
      .sort((a, b) => compareVersions(b.version, a.version));
  }

  /** Up to `limit` latest entries sorted by tool id, those after tool id `startAfter` when given. */
  async listLatest(limit: number, filter: LatestFilter = {}, startAfter?: string): Promise<LatestPage> {
    const { expression, names, values } = filterExpression(filter);
    const entries: PublishedEntry[] = [];
    let startKey = startAfter === undefined ? undefined : latestIndexKey(startAfter);
    let more = true;
    while (more && entries.length < limit) {
      const base = indexQueryInput(this.table, LATEST_INDEX, LATEST_CATALOG);
      const page = await this.db.send(
        new QueryCommand({
          ...base,
          ...(expression ? { FilterExpression: expression } : {}),
          ExpressionAttributeNames: { ...base.ExpressionAttributeNames, ...names },
          ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ...values },
          ExclusiveStartKey: startKey,
          // A filter applies after Limit, so read ahead a little when filtering.
          Limit: expression ? Math.max(limit, 100) : limit - entries.length,
        }),
      );
      for (const item of page.Items ?? []) entries.push(item.entry as PublishedEntry);
      startKey = page.LastEvaluatedKey;
      more = startKey !== undefined;
    }
    const pageEntries = entries.slice(0, limit);
    return { entries: pageEntries, more: pageEntries.length > 0 && (entries.length > limit || more) };
  }

  /** Every latest entry (for search indexing and the `query/by-*` filters). */
  async listAllLatest(): Promise<PublishedEntry[]> {
    const items = await this.queryAll(indexQueryInput(this.table, LATEST_INDEX, LATEST_CATALOG));
    return items.map((item) => item.entry as PublishedEntry);
  }

  /** Deletes every version and the latest pointer; returns the deleted version entries. */
  async deleteTool(toolId: string): Promise<PublishedEntry[]> {
    const items = await this.queryAll({
      TableName: this.table,
      KeyConditionExpression: "tool_id = :id",
      ExpressionAttributeValues: { ":id": toolId },
      ConsistentRead: true,
    });
    // Latest pointer first: a half-finished delete never leaves a listed tool without versions.
    const ordered = [...items.filter((item) => item.version === LATEST_SORT_KEY), ...items.filter((item) => item.version !== LATEST_SORT_KEY)];
    for (let start = 0; start < ordered.length; start += 25) {
      let requests = ordered.slice(start, start + 25).map((item) => ({
        DeleteRequest: { Key: { tool_id: item.tool_id, version: item.version } },
      }));
      while (requests.length > 0) {
        const result = await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: requests } }));
        requests = (result.UnprocessedItems?.[this.table] ?? []) as typeof requests;
      }
    }
    return items.filter((item) => item.version !== LATEST_SORT_KEY).map((item) => item.entry as PublishedEntry);
  }

  /** Whether any published version uses the archive with this hash. */
  async archiveReferenced(sha256: string): Promise<boolean> {
    const result = await this.db.send(new QueryCommand({ ...indexQueryInput(this.table, ARCHIVE_INDEX, sha256), Limit: 1 }));
    return (result.Items?.length ?? 0) > 0;
  }

  /** Marks a catalog change; every process sees a new `catalogRevision()` afterwards. */
  async bumpRevision(): Promise<string> {
    const result = await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: REVISION_KEY,
        UpdateExpression: "ADD revision :one",
        ExpressionAttributeValues: { ":one": 1 },
        ReturnValues: "UPDATED_NEW",
      }),
    );
    return String(result.Attributes?.revision ?? 0);
  }

  /** Bumps the revision and logs which tool it changed (see revision-log.ts); returns the new revision. */
  async recordChange(change: CatalogChange): Promise<number> {
    const revision = Number(await this.bumpRevision());
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: REVISION_KEY,
        UpdateExpression: "SET #slot = :change",
        ExpressionAttributeNames: { "#slot": changeSlot(revision) },
        ExpressionAttributeValues: { ":change": { revision, tool_id: change.toolId } },
      }),
    );
    return revision;
  }

  /** A string that changes on every catalog write (publish, update, delete). */
  async catalogRevision(): Promise<string> {
    return String((await this.readRevisionLog()).revision);
  }

  /** The revision and the log of the tools its last revisions changed. */
  async readRevisionLog(): Promise<RevisionLog> {
    const result = await this.db.send(new GetCommand({ TableName: this.table, Key: REVISION_KEY, ConsistentRead: true }));
    return new RevisionLog(result.Item);
  }

  private versionItem(entry: PublishedEntry) {
    return {
      TableName: this.table,
      Item: { tool_id: entry.tool_id, version: entry.version, entry, tool_archive_sha256: entry.tool_archive_sha256 },
    };
  }

  private async getEntry(toolId: string, sortKey: string): Promise<PublishedEntry | undefined> {
    const result = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { tool_id: toolId, version: sortKey }, ConsistentRead: true }),
    );
    return result.Item?.entry as PublishedEntry | undefined;
  }

  private async getLatestPointer(toolId: string): Promise<{ latest_version: string } | undefined> {
    const result = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: { tool_id: toolId, version: LATEST_SORT_KEY },
        ProjectionExpression: "latest_version",
        ConsistentRead: true,
      }),
    );
    return result.Item as { latest_version: string } | undefined;
  }

  /** Writes the pointer if it still names `expectedVersion` (or is absent when undefined). */
  private async writeLatest(entry: PublishedEntry, expectedVersion: string | undefined): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            tool_id: entry.tool_id,
            version: LATEST_SORT_KEY,
            catalog: LATEST_CATALOG,
            latest_version: entry.version,
            entry,
          },
          ConditionExpression:
            expectedVersion === undefined ? "attribute_not_exists(tool_id)" : "latest_version = :expected",
          ...(expectedVersion === undefined ? {} : { ExpressionAttributeValues: { ":expected": expectedVersion } }),
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}

function filterExpression(filter: LatestFilter): {
  expression?: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.type !== undefined || filter.tag !== undefined || filter.updatedSince !== undefined) names["#entry"] = "entry";
  if (filter.type !== undefined) {
    clauses.push("#entry.#type = :type");
    names["#type"] = "tool_type";
    values[":type"] = filter.type;
  }
  if (filter.tag !== undefined) {
    clauses.push("contains(#entry.#tags, :tag)");
    names["#tags"] = "tool_tags";
    values[":tag"] = filter.tag;
  }
  if (filter.updatedSince !== undefined) {
    clauses.push("#entry.#updated >= :since");
    names["#updated"] = "updated_at";
    values[":since"] = filter.updatedSince;
  }
  return clauses.length > 0 ? { expression: clauses.join(" AND "), names, values } : { names, values };
}

function latestIndexKey(toolId: string): Record<string, string> {
  return { [LATEST_INDEX.partition]: LATEST_CATALOG, tool_id: toolId, version: LATEST_SORT_KEY };
}

function isConditionFailure(error: unknown): boolean {
  return (error as { name?: string }).name === "ConditionalCheckFailedException";
}
