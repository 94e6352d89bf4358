import { presentEntriesJson } from "../catalog/present-entry.js";
import { jsonText } from "../http/json-text.js";
import { RegistryError } from "../http/registry-error.js";
import { requestOrigin } from "../http/request-origin.js";
import type { LatestFilter } from "../storage/entry-store.js";
import type { RouteModule } from "./route-module.js";

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 200;

/**
 * `GET /tools?limit=&cursor=&type=&tag=&updated_since=`: latest entries sorted by tool id, as a bare
 * array (like the original); the next page is in `Link: <…>; rel="next"`.
 */
export const listToolsRoute: RouteModule = (app, deps) => {
  app.get("/tools", async (c) => {
    const limit = parseLimit(c.req.query("limit"));
    const filter: LatestFilter = {};
    const type = c.req.query("type");
    const tag = c.req.query("tag");
    const updatedSince = c.req.query("updated_since");
    if (type !== undefined) filter.type = type;
    if (tag !== undefined) filter.tag = tag;
    if (updatedSince !== undefined) filter.updatedSince = parseTimestamp(updatedSince);
    const cursor = c.req.query("cursor");

    let page;
    try {
      page = await deps.reader.page(limit, filter, cursor === "" ? undefined : cursor);
    } catch (error) {
      if (error instanceof RangeError) {
        throw new RegistryError(400, "Invalid cursor", "The cursor was not issued by this registry; follow the Link header's URL unchanged, or omit cursor to start over.");
      }
      throw error;
    }

    const origin = requestOrigin(c, deps.config.publicUrl);
    if (page.nextCursor !== undefined) {
      const next = new URL(`${origin}/tools`);
      for (const [name, value] of new URL(c.req.url).searchParams) if (name !== "cursor") next.searchParams.set(name, value);
      next.searchParams.set("cursor", page.nextCursor);
      c.header("Link", `<${next.href}>; rel="next"`);
    }
    return jsonText(c, presentEntriesJson(page.entries, origin));
  });
};

function parseLimit(value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_LIST_LIMIT;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new RegistryError(400, "Invalid limit", `limit must be an integer from 1 to ${MAX_LIST_LIMIT}, got "${value}".`);
  }
  return limit;
}

function parseTimestamp(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) {
    throw new RegistryError(400, "Invalid updated_since", `updated_since must be an ISO 8601 timestamp such as 2026-01-31T12:00:00Z, got "${value}".`);
  }
  return new Date(time).toISOString();
}
