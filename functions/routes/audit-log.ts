import { HttpProblem } from "../http-problem.js";
import { listingScope } from "../listing/page-cursor.js";
import { registryCursors } from "../listing/registry-cursors.js";
import { AUDIT_SORT_KEY } from "../storage/audit-store.js";
import { requireWriter } from "../trust/require-writer.js";
import type { RouteModule } from "../route-module.js";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 100;

/** The audit log's cursors name the last event's key (`<ISO time>#<uuid>`), signed like every listing's. */
const SCOPE = listingScope("/audit", {});
const isAuditKey = (after: string) => AUDIT_SORT_KEY.test(after);

/**
 * `GET /audit?limit=&cursor=` (admin only): every write, newest first (docs/design/publisher-trust.md,
 * "Audit log"). `next_cursor` is opaque; one the registry did not hand out is 400.
 */
export const auditLogRoute: RouteModule = (app, deps) => {
  const cursors = registryCursors(deps.config);
  app.get("/audit", requireWriter(deps, { adminOnly: true }), async (c) => {
    const limit = limitParam(c.req.query("limit"));
    const cursor = c.req.query("cursor");
    const before = cursor === undefined || cursor === "" ? undefined : await cursors.decode(SCOPE, cursor, isAuditKey);
    const page = await deps.trust.audit.page(limit, before);
    return c.json({
      events: page.events,
      ...(page.lastKey === undefined ? {} : { next_cursor: await cursors.encode(SCOPE, page.lastKey) }),
    });
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
