import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { isToolId } from "../validate/tool-id.js";
import { indexQueryInput } from "./index-query.js";
import { scanKeyPage } from "./key-scan.js";
import { conditionalWrite } from "./query-all.js";
import { INTERNAL_PARTITION_PREFIX, LATEST_CATALOG, LATEST_INDEX, LATEST_SORT_KEY } from "./table-schema.js";
import { TRUST_PARTITIONS } from "./trust-keys.js";

/** Where the scheduled repair keeps its progress: an internal item no tool route reaches (docs/durability.md, "Key space"). */
export const REPAIR_PROGRESS_KEY = { tool_id: `${INTERNAL_PARTITION_PREFIX}repair`, version: "#progress" } as const;

export type TableKey = Record<string, unknown>;

/** How far one part of a full pass got: where its next page starts, or that it is done. */
export interface PartProgress {
  done: boolean;
  /** The table's or index's `LastEvaluatedKey` (S3's last key for the archives). */
  next?: TableKey | string;
  /** The last tool a scan segment checked: the first items of the next page may still be its. */
  lastToolId?: string;
}

/** A full pass in parallel parts: the table's scan segments, the listing index, the archive objects. */
export interface FullPassProgress {
  startedAt: string;
  parts: Record<string, PartProgress>;
}

export interface RepairProgress {
  /** The sort key of the last audit event the incremental repair handled. */
  auditAfter?: string;
  pass?: FullPassProgress;
  /** When the last full pass finished (the next starts a period after the previous one started). */
  lastPassStartedAt?: string;
}

/** A page of tool ids and how many items were read for it (what the pass costs). */
export interface ToolPage {
  toolIds: string[];
  itemsRead: number;
  next?: TableKey;
}

const PART_PREFIX = "pass_part_";

/**
 * The repair's own reads of the table, each one page at a time so a run can stop at any page and
 * the next run continue from the key it stored: the audit log in time order (the change record),
 * the key scan in parallel segments, the listing index; and the progress item itself.
 */
export class RepairStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async progress(): Promise<RepairProgress> {
    const item = (await this.db.send(new GetCommand({ TableName: this.table, Key: REPAIR_PROGRESS_KEY, ConsistentRead: true }))).Item;
    if (item === undefined) return {};
    const parts: Record<string, PartProgress> = {};
    for (const [attribute, value] of Object.entries(item))
      if (attribute.startsWith(PART_PREFIX)) parts[attribute.slice(PART_PREFIX.length)] = value as PartProgress;
    return {
      ...(typeof item.audit_after === "string" ? { auditAfter: item.audit_after } : {}),
      ...(typeof item.pass_started_at === "string" ? { pass: { startedAt: item.pass_started_at, parts } } : {}),
      ...(typeof item.last_pass_started_at === "string" ? { lastPassStartedAt: item.last_pass_started_at } : {}),
    };
  }

  /** Moves the incremental checkpoint forward (never back: two overlapping runs keep the further one). */
  async saveAuditAfter(key: string): Promise<void> {
    await this.update("SET audit_after = :key", "attribute_not_exists(audit_after) OR audit_after < :key", {}, { ":key": key });
  }

  /** Starts a full pass with these parts (false when another run started one meanwhile). */
  startPass(startedAt: string, parts: readonly string[]): Promise<boolean> {
    const values: Record<string, unknown> = { ":started": startedAt };
    for (const index of parts.keys()) values[`:p${index}`] = { done: false } satisfies PartProgress;
    const sets = ["pass_started_at = :started", ...parts.map((_, index) => `#p${index} = :p${index}`)];
    return this.update(`SET ${sets.join(", ")}`, "attribute_not_exists(pass_started_at)", partNames(parts), values);
  }

  /** Stores one part's progress, if the pass it belongs to is still the current one. */
  savePart(startedAt: string, part: string, progress: PartProgress): Promise<boolean> {
    return this.update("SET #p0 = :progress", "pass_started_at = :started", partNames([part]), {
      ":progress": progress,
      ":started": startedAt,
    });
  }

  /** Ends the pass: its parts go, and its start is kept to time the next one. */
  async finishPass(startedAt: string, parts: readonly string[]): Promise<void> {
    const names = partNames(parts);
    await this.update(
      `SET last_pass_started_at = :started REMOVE pass_started_at, ${Object.keys(names).join(", ")}`,
      "pass_started_at = :started",
      names,
      { ":started": startedAt },
    );
  }

  /** One conditional update of the progress item; false when its condition did not hold. */
  private update(expression: string, condition: string, names: Record<string, string>, values: Record<string, unknown>): Promise<boolean> {
    return conditionalWrite(
      this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: REPAIR_PROGRESS_KEY,
          UpdateExpression: expression,
          ConditionExpression: condition,
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: values,
        }),
      ),
    );
  }

  /**
   * The tools the audit log's events after `after` and up to `upTo` (sort keys, time first) name,
   * in time order, `limit` events at a time. Every write request stores its event, naming its tool,
   * before it writes anything to that tool (trust/require-writer.ts, trust/admit-release.ts).
   */
  async auditPage(
    after: string,
    upTo: string,
    limit: number,
  ): Promise<{ toolIds: string[]; itemsRead: number; lastKey?: string; more: boolean }> {
    const page = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "tool_id = :audit AND version BETWEEN :after AND :upTo",
        ExpressionAttributeValues: { ":audit": TRUST_PARTITIONS.audit, ":after": after, ":upTo": upTo },
        ProjectionExpression: "version, event_tool_id",
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    const items = (page.Items ?? []).filter((item) => item.version !== after);
    const toolIds = [...new Set(items.map((item) => String(item.event_tool_id ?? "")).filter(isToolId))];
    const lastKey = items.at(-1)?.version;
    return {
      toolIds,
      itemsRead: page.Count ?? 0,
      ...(typeof lastKey === "string" ? { lastKey } : {}),
      more: page.LastEvaluatedKey !== undefined,
    };
  }

  /** One page of one parallel scan segment's keys (`key-scan.ts`). */
  scanPage(segment: number, segments: number, start: TableKey | undefined, limit: number): Promise<ToolPage> {
    return scanKeyPage(this.db, this.table, { segment, segments, limit, ...(start === undefined ? {} : { start }) });
  }

  /** One page of the tools the listing index lists. */
  async listingPage(start: TableKey | undefined, limit: number): Promise<ToolPage> {
    const base = indexQueryInput(this.table, LATEST_INDEX, LATEST_CATALOG);
    const page = await this.db.send(
      new QueryCommand({
        ...base,
        ProjectionExpression: "#tool",
        ExpressionAttributeNames: { ...base.ExpressionAttributeNames, "#tool": "tool_id" },
        Limit: limit,
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
      }),
    );
    const toolIds = (page.Items ?? []).map((item) => String(item.tool_id)).filter(isToolId);
    return { toolIds, itemsRead: page.Count ?? 0, ...(page.LastEvaluatedKey === undefined ? {} : { next: page.LastEvaluatedKey }) };
  }

  /** Which of these tools have an item under their pointer key (a pointer or a tombstone), 100 keys a request. */
  async withPointerItem(toolIds: readonly string[]): Promise<Set<string>> {
    const present = new Set<string>();
    for (let start = 0; start < toolIds.length; start += 100) {
      let keys: TableKey[] = toolIds.slice(start, start + 100).map((toolId) => ({ tool_id: toolId, version: LATEST_SORT_KEY }));
      while (keys.length > 0) {
        const result = await this.db.send(
          new BatchGetCommand({ RequestItems: { [this.table]: { Keys: keys, ProjectionExpression: "tool_id", ConsistentRead: true } } }),
        );
        for (const item of result.Responses?.[this.table] ?? []) present.add(String(item.tool_id));
        keys = (result.UnprocessedKeys?.[this.table]?.Keys ?? []) as TableKey[];
      }
    }
    return present;
  }
}

/** `#p<i>` for each part's attribute, in order. */
function partNames(parts: readonly string[]): Record<string, string> {
  return Object.fromEntries(parts.map((part, index) => [`#p${index}`, `${PART_PREFIX}${part}`]));
}
