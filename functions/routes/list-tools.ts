import { latestEntriesPage } from "./latest-entries-page.js";
import { publicReadCacheControl } from "../http/edge-cache.js";
import { jsonText } from "../http/json-text.js";
import { HttpProblem } from "../http-problem.js";
import { MAX_PAGE_ITEMS, parsePageLimit } from "../listing/bounded-page.js";
import { listingScope } from "../listing/page-cursor.js";
import { registryCursors } from "../listing/registry-cursors.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import type { RouteModule } from "../route-module.js";

/**
 * `GET /tools?limit=&cursor=&type=&tag=&updated_since=`: latest entries sorted by tool id, as a bare
 * array (as the Python registry answered, docs/design/compatibility.md#wire); the next page is in `Link: <…>;
 * rel="next"`. A page holds at most
 * `limit` entries (default and maximum 1,000) and stays within Lambda's response limit by bytes.
 * Served from the process's catalogue (`allLatest`, loaded from the stored listing), never from a
 * query of the listing index's one partition per request.
 */
export const listToolsRoute: RouteModule = (app, deps) => {
  const cursors = registryCursors(deps.config);
  app.get("/tools", async (c) => {
    const limit = parsePageLimit(c.req.query("limit"), MAX_PAGE_ITEMS, MAX_PAGE_ITEMS);
    const type = c.req.query("type");
    const tag = c.req.query("tag");
    const updatedParam = c.req.query("updated_since");
    const updatedSince = updatedParam === undefined ? undefined : parseTimestamp(updatedParam);
    const scope = listingScope("/tools", { type, tag, updated_since: updatedSince });
    const matches = (entry: PublishedEntry) =>
      (type === undefined || entry.tool_type === type) &&
      (tag === undefined || entry.tool_tags.includes(tag)) &&
      (updatedSince === undefined || entry.updated_at >= updatedSince);
    const json = await latestEntriesPage(c, deps, { cursors, scope, limit, matches });
    c.header("Cache-Control", publicReadCacheControl(deps.config));
    return jsonText(c, json);
  });
};

function parseTimestamp(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    throw new HttpProblem(
      400,
      "Invalid updated_since",
      `updated_since must be an ISO 8601 timestamp such as 2026-01-31T12:00:00Z, got "${value.slice(0, 40)}".`,
    );
  }
  return new Date(time).toISOString();
}
