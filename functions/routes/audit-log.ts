import { HttpProblem } from "../http-problem.js";
import { AUDIT_SORT_KEY } from "../storage/audit-store.js";
import { requireWriter } from "../trust/require-writer.js";
import type { RouteModule } from "../route-module.js";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

/**
 * `GET /audit?limit=&cursor=` (admin only): every write, newest first (docs/design/publisher-trust.md,
 * "Audit log"). `next_cursor` is opaque; one the registry did not hand out is 400.
 */
export const auditLogRoute: RouteModule = (app, deps) => {
  app.get("/audit", requireWriter(deps, { adminOnly: true }), async (c) => {
    const limit = limitParam(c.req.query("limit"));
    const cursor = c.req.query("cursor");
    const before = cursor === undefined ? undefined : cursorKey(cursor);
    const page = await deps.trust.audit.page(limit, before);
    return c.json({ events: page.events, ...(page.lastKey === undefined ? {} : { next_cursor: encodeCursor(page.lastKey) }) });
  });
};

function limitParam(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT))
    throw new HttpProblem(
      400,
      "Invalid limit",
      `limit must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(value.slice(0, 40))}.`,
    );
  return limit;
}

function encodeCursor(key: string): string {
  return Buffer.from(key, "utf8").toString("base64url");
}

/** The sort key a cursor holds; anything the registry could not have handed out is 400, never a storage key. */
function cursorKey(cursor: string): string {
  const key = cursor.length <= 200 && /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  if (!AUDIT_SORT_KEY.test(key)) {
    throw new HttpProblem(
      400,
      "Invalid cursor",
      "cursor is not one this registry handed out; pass the next_cursor of the previous page unchanged, or leave it out for the newest events.",
    );
  }
  return key;
}
