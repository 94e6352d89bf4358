import { GetCommand, ScanCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { setIf } from "./entry-table.js";
import { indexQueryInput } from "./index-query.js";
import { scanKeyPage } from "./key-scan.js";
import { referencedVersion, versionListsArchive } from "./platform-archive-references.js";
import { queryAll } from "./query-all.js";
import { ARCHIVE_INDEX, LATEST_CATALOG, LATEST_INDEX } from "./table-schema.js";

/** Parallel segments of the doctor's key scan: eight requests in flight, well within on-demand read capacity. */
const SCAN_SEGMENTS = 8;

/** A listing-index entry as the doctor compares it with the table: which pointer, at which order. */
export interface LatestIndexEntry {
  toolId: string;
  version: string;
  order?: string;
}

/** An archive-index entry: the version item it says references the archive. */
export interface ArchiveIndexEntry {
  toolId: string;
  version: string;
  sha256: string;
}

/** What the doctor reads to compare the table with its indexes, and the rewrite that repairs the archive index. */
export class IndexQueries {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Every tool id with anything stored (for the doctor): one Scan of the keys, in `segments`
   * parallel segments (DynamoDB's parallel scan), so a large table is read at several partitions'
   * pace instead of one page after another.
   */
  async listToolIds(segments = SCAN_SEGMENTS): Promise<string[]> {
    const ids = new Set<string>();
    await Promise.all(
      Array.from({ length: segments }, async (_, segment) => {
        let start: Record<string, unknown> | undefined;
        do {
          const page = await scanKeyPage(this.db, this.table, { segment, segments, ...(start === undefined ? {} : { start }) });
          for (const toolId of page.toolIds) ids.add(toolId);
          start = page.next;
        } while (start);
      }),
    );
    return [...ids].sort();
  }

  /**
   * Whether any version item references the archive with this hash, as the items themselves say.
   * The archive index only says where to look: dynalite writes an index entry before its item, so
   * a kill between the two leaves an entry naming an item that is not stored, and DynamoDB's
   * indexes are eventually consistent. Each entry is confirmed by a consistent read of the item it
   * names (docs/durability.md, "Repair trusts only base items").
   */
  async archiveReferenced(sha256: string): Promise<boolean> {
    for (const named of await this.archiveIndexEntries(sha256)) {
      // A platform archive's reference item: the version it names must list the archive.
      const version = referencedVersion(named);
      if (version !== undefined) {
        if (await versionListsArchive(this.db, this.table, version, sha256)) return true;
        continue;
      }
      const result = await this.db.send(
        new GetCommand({
          TableName: this.table,
          Key: { tool_id: named.toolId, version: named.version },
          ConsistentRead: true,
          ProjectionExpression: "#sha",
          ExpressionAttributeNames: { "#sha": ARCHIVE_INDEX.partition },
        }),
      );
      if (result.Item?.[ARCHIVE_INDEX.partition] === sha256) return true;
    }
    return false;
  }

  /** The listing index's entries (keys and order only; only `toolId`'s when given), for the doctor to compare with the pointers. */
  async latestIndexEntries(toolId?: string): Promise<LatestIndexEntry[]> {
    const base = indexQueryInput(this.table, LATEST_INDEX, LATEST_CATALOG);
    const items = await queryAll(this.db, {
      ...base,
      ...(toolId === undefined
        ? {}
        : {
            KeyConditionExpression: `${base.KeyConditionExpression} AND #tool = :tool`,
            ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ":tool": toolId },
          }),
      ProjectionExpression: "#tool, #latest, #order",
      ExpressionAttributeNames: {
        ...base.ExpressionAttributeNames,
        "#tool": "tool_id",
        "#latest": "latest_version",
        "#order": "latest_order",
      },
    });
    return items.map((item) => ({
      toolId: String(item.tool_id),
      version: String(item.latest_version ?? ""),
      ...(typeof item.latest_order === "string" ? { order: item.latest_order } : {}),
    }));
  }

  /** The archive index's entries (only those of `sha256` when given), for the doctor to compare with the version items. */
  async archiveIndexEntries(sha256?: string): Promise<ArchiveIndexEntry[]> {
    const items: Record<string, unknown>[] = [];
    if (sha256 !== undefined) items.push(...(await queryAll(this.db, indexQueryInput(this.table, ARCHIVE_INDEX, sha256))));
    else {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await this.db.send(
          new ScanCommand({ TableName: this.table, IndexName: ARCHIVE_INDEX.name, ExclusiveStartKey: startKey }),
        );
        items.push(...(page.Items ?? []));
        startKey = page.LastEvaluatedKey;
      } while (startKey);
    }
    return items.map((item) => ({
      toolId: String(item.tool_id),
      version: String(item.version),
      sha256: String(item[ARCHIVE_INDEX.partition]),
    }));
  }

  /** Writes a version item's archive reference again (unchanged), so an archive index that lost its entry holds it again. */
  async rewriteArchiveReference(toolId: string, version: string, sha256: string): Promise<boolean> {
    return setIf(this.db, this.table, { toolId, version }, ARCHIVE_INDEX.partition, sha256, "#attribute = :value");
  }
}
