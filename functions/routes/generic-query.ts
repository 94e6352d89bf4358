import { latestEntriesPage } from "./latest-entries-page.js";
import { createHash } from "node:crypto";
import { jsonText } from "../http/json-text.js";
import { readJsonBody } from "../http/read-json-body.js";
import { MAX_PAGE_ITEMS, parsePageLimit } from "../listing/bounded-page.js";
import { listingScope } from "../listing/page-cursor.js";
import { registryCursors } from "../listing/registry-cursors.js";
import { parseGenericFilter } from "../query/generic-filter.js";
import type { RouteModule } from "../route-module.js";

const PATH = "/tools/query/generic";

/**
 * `POST /tools/query/generic`: the Python registry's filter query, for a safe subset of filters
 * (`query/generic-filter.ts`). A bare array of matching latest entries sorted by tool id, bounded
 * like `GET /tools` (`?limit=&cursor=`, the next page in `Link: <…>; rel="next"`, for the same body).
 */
export const genericQueryRoute: RouteModule = (app, deps) => {
  const cursors = registryCursors(deps.config);
  app.post(PATH, async (c) => {
    const body = await readJsonBody(c);
    const matches = parseGenericFilter(body);
    const limit = parsePageLimit(c.req.query("limit"), MAX_PAGE_ITEMS, MAX_PAGE_ITEMS);
    // The filter by digest: a cursor stays short whatever the filter's size.
    const scope = listingScope(PATH, { filter: createHash("sha256").update(JSON.stringify(body)).digest("base64url") });
    return jsonText(c, await latestEntriesPage(c, deps, { cursors, scope, limit, matches }));
  });
};
