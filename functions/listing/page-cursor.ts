import { createHmac, timingSafeEqual } from "node:crypto";
import { HttpProblem } from "../http-problem.js";

/** Longer than any cursor this registry issues (a tool id or a version is at most 128 characters). */
export const MAX_CURSOR_CHARS = 1024;

/** The MAC's secret: random per deployment (docs/registry.md#paging-cursors); see `cursor-secret.ts`. */
export type CursorSecret = () => Promise<string>;

const INVALID = "Invalid cursor";
const FOLLOW_LINK = "follow the Link header's URL (or next_cursor) unchanged, or omit cursor to start over";
/** `<payload>.<MAC>`, both base64url; the MAC is 16 bytes (22 characters). */
const CURSOR_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/;

/**
 * Opaque continuation tokens for every paged listing (`GET /tools`, `query/*`, versions, search,
 * the audit log). A cursor names a position (`after`: the last tool id or version served, an
 * offset of ranked results, an audit key) in one listing (`scope`: the route and its filters),
 * and carries a MAC under a secret only the registry knows, so a cursor that was forged, edited,
 * truncated or issued for another listing is a 400 naming `cursor`, never a wrong page or a 500.
 * Everything is checked before the position reaches storage: the MAC, then that the payload is
 * exactly two strings, then the scope, then the listing's own rule for positions.
 */
export class PageCursors {
  private key: Promise<Buffer> | undefined;

  constructor(private readonly secret: CursorSecret) {}

  async encode(scope: string, after: string): Promise<string> {
    const payload = Buffer.from(JSON.stringify([scope, after]), "utf8").toString("base64url");
    return `${payload}.${(await this.mac(payload)).toString("base64url")}`;
  }

  /**
   * The position `cursor` names in `scope`, once `isPosition` accepts it; a 400 for anything this
   * registry did not issue for that listing.
   */
  async decode(scope: string, cursor: string, isPosition: (after: string) => boolean): Promise<string> {
    if (cursor.length > MAX_CURSOR_CHARS) {
      throw invalid(`cursor is ${cursor.length} characters long, more than any this registry issues (${MAX_CURSOR_CHARS})`);
    }
    if (!CURSOR_SHAPE.test(cursor)) throw invalid("cursor is not one this registry issues (the shape is wrong)");
    const [payload = "", mac = ""] = cursor.split(".");
    const expected = await this.mac(payload);
    const given = Buffer.from(mac, "base64url");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalid("cursor was not issued by this registry, or was altered");
    }
    const position = issuedPosition(payload);
    if (position === undefined) throw invalid("cursor does not hold a position this registry issues");
    if (position.scope !== scope) throw invalid("cursor belongs to another listing or other filters");
    if (!isPosition(position.after)) throw invalid("cursor does not name a position in this listing");
    return position.after;
  }

  private async mac(payload: string): Promise<Buffer> {
    this.key ??= this.secret().then(
      (secret) => createHmac("sha256", "agent-tools page cursor").update(secret).digest(),
      (error: unknown) => {
        // Unreadable now (a secret store outage): the next cursor tries again.
        this.key = undefined;
        throw error;
      },
    );
    return createHmac("sha256", await this.key)
      .update(payload)
      .digest()
      .subarray(0, 16);
  }
}

/** `[scope, after]`, both strings, or undefined for any other payload (not JSON, null, numbers, objects). */
function issuedPosition(payload: string): { scope: string; after: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [scope, after] = value as unknown[];
  return typeof scope === "string" && typeof after === "string" ? { scope, after } : undefined;
}

function invalid(problem: string): HttpProblem {
  return new HttpProblem(400, INVALID, `The ${problem}; ${FOLLOW_LINK}.`);
}

/** The scope of a listing: its path and the parameters that select its items (never limit or cursor). */
export function listingScope(path: string, parameters: Record<string, string | undefined>): string {
  const selected = Object.entries(parameters)
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([path, selected]);
}
