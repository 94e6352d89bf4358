import { createHash } from "node:crypto";
import { presentEntryJson } from "../catalog/present-entry.js";
import { jsonText } from "../http/json-text.js";
import { readJsonBody } from "../http/read-json-body.js";
import { requestOrigin } from "../http/request-origin.js";
import { boundedPage, MAX_PAGE_BYTES, MAX_PAGE_ITEMS, parsePageLimit } from "../listing/bounded-page.js";
import { setNextPageLink } from "../listing/next-page-link.js";
import { listingScope } from "../listing/page-cursor.js";
import { registryCursors } from "../listing/registry-cursors.js";
import { indexAfter, matchingFrom } from "../listing/sorted-entries.js";
import { parseGenericFilter } from "../query/generic-filter.js";
import type { RouteModule } from "../route-module.js";
import { isToolId } from "../validate/tool-id.js";

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
    const cursor = c.req.query("cursor");
    const after = cursor === undefined || cursor === "" ? undefined : await cursors.decode(scope, cursor, isToolId);
    const entries = await deps.reader.allLatest();
    const start = after === undefined ? 0 : indexAfter(entries, after);
    const origin = requestOrigin(c, deps.config);
    const page = boundedPage(matchingFrom(entries, start, matches), (entry) => presentEntryJson(entry, origin), {
      limit,
      maxBytes: MAX_PAGE_BYTES,
    });
    const last = page.items.at(-1);
    if (page.more && last !== undefined) setNextPageLink(c, deps.config, await cursors.encode(scope, last.tool_id));
    return jsonText(c, page.json);
  });
};
