import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { queryAll } from "./query-all.js";
import type { WriteAction } from "../auth/write-action.js";
import { isConditionFailure } from "./storage-errors.js";
import { TRUST_PARTITIONS } from "./trust-keys.js";

/** A publisher token as listed (never its secret or hash). */
export interface TokenRecord {
  name: string;
  scope: string[];
  actions: WriteAction[];
  created_at: string;
  expires_at: string;
  revoked_at?: string;
}

export type Authentication =
  | { kind: "ok"; token: TokenRecord }
  | { kind: "unknown" }
  | { kind: "expired"; at: string }
  | { kind: "revoked"; at: string }
  /** The secret of a token that a newer one (created `at`) replaced: recognised, never accepted. */
  | { kind: "rotated"; at: string }
  /** Past the write rate: retry once the current window ends. */
  | { kind: "limited"; retryAfterSeconds: number };

export interface RateLimit {
  /** Writes per window. */
  limit: number;
  windowMs: number;
}

/** Thrown by `create` when the name has a live (unrevoked, unexpired) token. */
export class TokenExistsError extends Error {
  constructor(readonly publisher: string) {
    super(`publisher ${publisher} has a live token`);
    this.name = "TokenExistsError";
  }
}

const KEY = (name: string) => ({ tool_id: TRUST_PARTITIONS.tokens, version: name });
const HISTORY_KEY = (sha256: string) => ({ tool_id: TRUST_PARTITIONS.tokenHistory, version: sha256 });
const LIVE = "token_sha256 = :hash AND attribute_not_exists(revoked_at) AND expires_at > :now";

/**
 * Publisher tokens, one item per publisher name (`#tokens`, name): the token's sha256, scope,
 * actions, expiry, revocation, and the write-rate counter of the current window. Authenticating and
 * counting a write is one conditional update in the common case, so every instance shares the rate.
 * A token replaced by a newer one of the same name leaves its hash in the history
 * (`#token-history`, sha256), so its secret is still known for what it was: refused, and audited
 * like a revoked one (docs/design/publisher-trust.md, "Audit log").
 */
export class TokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  /**
   * Stores a new token; a name whose token was revoked or has expired is rotated (same publisher).
   * The replaced token goes into the history first, so a crash never loses it (a history entry of
   * a token that stays current is never consulted: its hash still matches the current item).
   */
  async create(record: TokenRecord, sha256: string): Promise<void> {
    const replaced = await this.lookup(record.name);
    if (typeof replaced?.token_sha256 === "string") await this.remember(replaced.token_sha256, record.name);
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...KEY(record.name), ...record, token_sha256: sha256 },
          ConditionExpression: "attribute_not_exists(tool_id) OR attribute_exists(revoked_at) OR expires_at <= :now",
          ExpressionAttributeValues: { ":now": record.created_at },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) throw new TokenExistsError(record.name);
      throw error;
    }
  }

  async get(name: string): Promise<TokenRecord | undefined> {
    const item = await this.lookup(name);
    return item === undefined ? undefined : toRecord(item);
  }

  /** Every token, by name. */
  async list(): Promise<TokenRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.table,
      KeyConditionExpression: "tool_id = :partition",
      ExpressionAttributeValues: { ":partition": TRUST_PARTITIONS.tokens },
      ConsistentRead: true,
    });
    return items.map(toRecord);
  }

  /** Revokes the token of `name` (again: keeps the first revocation time); undefined when there is none. */
  async revoke(name: string, now: string): Promise<TokenRecord | undefined> {
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: KEY(name),
          UpdateExpression: "SET revoked_at = :now",
          ConditionExpression: "attribute_exists(tool_id) AND attribute_not_exists(revoked_at)",
          ExpressionAttributeValues: { ":now": now },
          ReturnValues: "ALL_NEW",
        }),
      );
      return toRecord(result.Attributes ?? {});
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return this.get(name);
    }
  }

  /**
   * Checks a presented token's hash, and counts one write against its rate when `rate` is given.
   * Common case: one conditional update (same window, under the limit); the first write of a window
   * resets the counter with a second one.
   */
  async authenticate(name: string, sha256: string, now: Date, rate?: RateLimit): Promise<Authentication> {
    const current = await this.authenticateCurrent(name, sha256, now, rate);
    return current.kind === "unknown" ? this.formerToken(name, sha256) : current;
  }

  private async authenticateCurrent(name: string, sha256: string, now: Date, rate?: RateLimit): Promise<Authentication> {
    const at = now.toISOString();
    if (rate === undefined) return explain(await this.lookup(name), sha256, at);
    const window = Math.floor(now.getTime() / rate.windowMs);
    for (let attempt = 0; attempt < 3; attempt++) {
      const counted = await this.count(name, sha256, at, window, rate.limit);
      if (counted !== undefined) return { kind: "ok", token: counted };
      const raw = await this.lookup(name);
      const failure = explain(raw, sha256, at);
      if (failure.kind !== "ok") return failure;
      if (raw?.rate_window === window) {
        return { kind: "limited", retryAfterSeconds: Math.max(1, Math.ceil(((window + 1) * rate.windowMs - now.getTime()) / 1000)) };
      }
      const reset = await this.startWindow(name, sha256, at, window);
      if (reset !== undefined) return { kind: "ok", token: reset };
      // Another request started the window first: count against it.
    }
    return { kind: "limited", retryAfterSeconds: 1 };
  }

  /** A secret that is not `name`'s current token: one it had before, or none the registry issued. */
  private async formerToken(name: string, sha256: string): Promise<Authentication> {
    const [former, current] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.table, Key: HISTORY_KEY(sha256), ConsistentRead: true })),
      this.lookup(name),
    ]);
    if (former.Item?.name !== name || current === undefined) return { kind: "unknown" };
    return { kind: "rotated", at: String(current.created_at ?? "") };
  }

  private async remember(sha256: string, name: string): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.table, Item: { ...HISTORY_KEY(sha256), name } }));
  }

  private async lookup(name: string): Promise<Record<string, unknown> | undefined> {
    return (await this.db.send(new GetCommand({ TableName: this.table, Key: KEY(name), ConsistentRead: true }))).Item;
  }

  private async count(name: string, sha256: string, now: string, window: number, limit: number): Promise<TokenRecord | undefined> {
    return this.conditionalUpdate(name, "SET rate_count = rate_count + :one", `${LIVE} AND rate_window = :window AND rate_count < :limit`, {
      ":hash": sha256,
      ":now": now,
      ":window": window,
      ":limit": limit,
      ":one": 1,
    });
  }

  private async startWindow(name: string, sha256: string, now: string, window: number): Promise<TokenRecord | undefined> {
    return this.conditionalUpdate(
      name,
      "SET rate_window = :window, rate_count = :one",
      `${LIVE} AND (attribute_not_exists(rate_window) OR rate_window < :window)`,
      {
        ":hash": sha256,
        ":now": now,
        ":window": window,
        ":one": 1,
      },
    );
  }

  private async conditionalUpdate(
    name: string,
    update: string,
    condition: string,
    values: Record<string, unknown>,
  ): Promise<TokenRecord | undefined> {
    try {
      const result = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: KEY(name),
          UpdateExpression: update,
          ConditionExpression: condition,
          ExpressionAttributeValues: values,
          ReturnValues: "ALL_NEW",
        }),
      );
      return toRecord(result.Attributes ?? {});
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }
}

/** Why a stored token does or does not authenticate: the hash must match before anything else is said. */
function explain(item: Record<string, unknown> | undefined, sha256: string, now: string): Authentication {
  if (item === undefined || item.token_sha256 !== sha256) return { kind: "unknown" };
  const record = toRecord(item);
  if (record.revoked_at !== undefined) return { kind: "revoked", at: record.revoked_at };
  if (record.expires_at <= now) return { kind: "expired", at: record.expires_at };
  return { kind: "ok", token: record };
}

function toRecord(item: Record<string, unknown>): TokenRecord {
  return {
    name: String(item.version),
    scope: (item.scope as string[] | undefined) ?? [],
    actions: (item.actions as WriteAction[] | undefined) ?? [],
    created_at: String(item.created_at ?? ""),
    expires_at: String(item.expires_at ?? ""),
    ...(typeof item.revoked_at === "string" ? { revoked_at: item.revoked_at } : {}),
  };
}
