import { createHmac, timingSafeEqual } from "node:crypto";
import { HttpProblem } from "../http-problem.js";

/** Longer than any cursor this registry issues (a tool id is at most 128 characters). */
export const MAX_CURSOR_CHARS = 1024;

const INVALID = "Invalid cursor";
const FOLLOW_LINK = "follow the Link header's URL unchanged, or omit cursor to start over";

/**
 * Opaque continuation tokens for every paged listing (`GET /tools`, `query/by-*`, search). A
 * cursor names a position (`after`: the last tool id served, or an offset for ranked results) in
 * one listing (`scope`: the route and its filters), and carries a MAC so that a cursor that was
 * edited, truncated or issued for another query is a 400, never a silent wrong page or a 500.
 * The MAC key is per registry; a cursor names only a position in a public list, so the key makes
 * cursors tamper-evident rather than secret.
 */
export class PageCursors {
  private readonly key: Buffer;

  constructor(key: string) {
    this.key = createHmac("sha256", "agent-tools page cursor").update(key).digest();
  }

  encode(scope: string, after: string): string {
    const payload = Buffer.from(JSON.stringify([scope, after]), "utf8").toString("base64url");
    return `${payload}.${this.mac(payload).toString("base64url")}`;
  }

  /** The position `cursor` names in `scope`; a 400 for anything this registry did not issue for it. */
  decode(scope: string, cursor: string): string {
    if (cursor.length > MAX_CURSOR_CHARS) {
      throw new HttpProblem(
        400,
        INVALID,
        `cursor is ${cursor.length} characters long, more than any this registry issues (${MAX_CURSOR_CHARS}); ${FOLLOW_LINK}.`,
      );
    }
    const [payload, mac, extra] = cursor.split(".");
    const expected = payload === undefined ? undefined : this.mac(payload);
    const given = mac === undefined ? undefined : Buffer.from(mac, "base64url");
    if (
      extra !== undefined ||
      expected === undefined ||
      given === undefined ||
      given.length !== expected.length ||
      !timingSafeEqual(given, expected)
    ) {
      throw new HttpProblem(400, INVALID, `The cursor was not issued by this registry (or was altered); ${FOLLOW_LINK}.`);
    }
    const [issuedScope, after] = JSON.parse(Buffer.from(payload!, "base64url").toString("utf8")) as [string, string];
    if (issuedScope !== scope) {
      throw new HttpProblem(400, INVALID, `The cursor belongs to another listing or other filters; ${FOLLOW_LINK}.`);
    }
    return after;
  }

  private mac(payload: string): Buffer {
    return createHmac("sha256", this.key).update(payload).digest().subarray(0, 16);
  }
}

/** The scope of a listing: its path and the parameters that select its items (never limit or cursor). */
export function listingScope(path: string, parameters: Record<string, string | undefined>): string {
  const selected = Object.entries(parameters)
    .filter((pair): pair is [string, string] => pair[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([path, selected]);
}

/** The cursors of one registry: its table and bucket name it, so every instance shares the key. */
export function registryCursors(config: { tableName: string; bucketName: string }): PageCursors {
  return new PageCursors(`${config.tableName}\0${config.bucketName}`);
}
