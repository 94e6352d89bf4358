import type { AuditEvent } from "@agent-tools/sdk/registry";
import { randomUUID } from "node:crypto";
import { PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { EXPIRES_AT_ATTRIBUTE } from "./table-schema.js";
import { TRUST_PARTITIONS } from "./trust-keys.js";

/** One write request as the audit log keeps it; `GET /audit` answers these (the SDK's type is the wire contract). */
export type { AuditEvent };
export type AuditOutcome = AuditEvent["outcome"];

export interface AuditPage {
  events: AuditEvent[];
  /** The sort key of the last event when more follow. */
  lastKey?: string;
}

/** `<ISO time>#<uuid>`: what an audit event's sort key looks like, and all a cursor may hold. */
export const AUDIT_SORT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The audit log (`#audit`, time + id): an event is put as `pending` when a write starts and
 * completed with its outcome when it is answered, so a process that dies in between leaves a
 * pending event rather than none. Read newest first. Each event carries its expiry
 * (`expires_at`, the table's time to live): the log keeps `retentionDays` and does not grow for ever.
 */
export class AuditStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly retentionDays: number,
  ) {}

  /** Stores `event` (pending); returns its key for `complete`. */
  async begin(event: AuditEvent): Promise<string> {
    const key = `${event.time}#${randomUUID()}`;
    const { tool_id, version, publisher, ...rest } = event;
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          ...rest,
          tool_id: TRUST_PARTITIONS.audit,
          version: key,
          ...stored({ tool_id, version, publisher }),
          [EXPIRES_AT_ATTRIBUTE]: Math.floor(Date.parse(event.time) / 1000) + this.retentionDays * 86_400,
        },
      }),
    );
    return key;
  }

  /** Records the outcome; `action`, `tool_id` and `version` as the route learnt them (absent: unchanged). */
  async complete(
    key: string,
    result: Pick<AuditEvent, "outcome" | "status" | "tool_id" | "version" | "publisher"> & { action?: string },
  ): Promise<void> {
    await this.set(key, {
      outcome: result.outcome,
      status: result.status,
      ...stored(result),
      ...(result.action === undefined ? {} : { action: result.action }),
    });
  }

  /**
   * Names the tool and version of a pending event as soon as the request learns them (an upload's,
   * from its bundle), before it writes to the tool: the incremental repair finds the tools a crash
   * left half written through these names (doctor/incremental-repair.ts).
   */
  async name(key: string, subject: Pick<AuditEvent, "tool_id" | "version">): Promise<void> {
    await this.set(key, stored(subject));
  }

  private async set(key: string, attributes: Record<string, unknown>): Promise<void> {
    const entries = Object.entries(attributes);
    if (entries.length === 0) return;
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: { tool_id: TRUST_PARTITIONS.audit, version: key },
        UpdateExpression: `SET ${entries.map(([attribute]) => `#${attribute} = :${attribute}`).join(", ")}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([attribute]) => [`#${attribute}`, attribute])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([attribute, value]) => [`:${attribute}`, value])),
      }),
    );
  }

  /** Up to `limit` events, newest first, those older than the event keyed `before` when given. */
  async page(limit: number, before?: string): Promise<AuditPage> {
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "tool_id = :partition",
        ExpressionAttributeValues: { ":partition": TRUST_PARTITIONS.audit },
        ScanIndexForward: false,
        Limit: limit,
        ConsistentRead: true,
        ...(before === undefined ? {} : { ExclusiveStartKey: { tool_id: TRUST_PARTITIONS.audit, version: before } }),
      }),
    );
    const items = result.Items ?? [];
    const events = items.map(toEvent);
    const last = result.LastEvaluatedKey?.version;
    return { events, ...(typeof last === "string" ? { lastKey: last } : {}) };
  }
}

/** The event's tool and version under their own attribute names: `tool_id` and `version` are the item's key. */
function stored(event: Pick<AuditEvent, "tool_id" | "version" | "publisher">): Record<string, string> {
  return {
    ...(event.tool_id === undefined ? {} : { event_tool_id: event.tool_id }),
    ...(event.version === undefined ? {} : { event_version: event.version }),
    ...(event.publisher === undefined ? {} : { event_publisher: event.publisher }),
  };
}

function toEvent(item: Record<string, unknown>): AuditEvent {
  return {
    time: String(item.time),
    token: String(item.token),
    action: String(item.action),
    ...(typeof item.event_tool_id === "string" ? { tool_id: item.event_tool_id } : {}),
    ...(typeof item.event_version === "string" ? { version: item.event_version } : {}),
    ...(typeof item.event_publisher === "string" ? { publisher: item.event_publisher } : {}),
    client: String(item.client),
    outcome: item.outcome as AuditOutcome,
    status: Number(item.status ?? 0),
  };
}
