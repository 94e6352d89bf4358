import { presentEntryJson } from "../catalog/present-entry.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { publicReadCacheControl } from "../http/edge-cache.js";
import { jsonText } from "../http/json-text.js";
import { HttpProblem } from "../http-problem.js";
import { requestOrigin } from "../http/request-origin.js";
import { boundedPage, MAX_PAGE_BYTES, MAX_PAGE_ITEMS, parsePageLimit } from "../listing/bounded-page.js";
import { setNextPageLink } from "../listing/next-page-link.js";
import { listingScope } from "../listing/page-cursor.js";
import { registryCursors } from "../listing/registry-cursors.js";
import { indexAfter, matchingFrom } from "../listing/sorted-entries.js";
import type { RouteModule } from "../route-module.js";
import { isToolId } from "../validate/tool-id.js";

/** The original registry's filters: path, query parameter, and the match on a latest entry. */
const QUERIES: { path: string; parameter: string; matches: (entry: PublishedEntry, value: string) => boolean }[] = [
  { path: "by-type", parameter: "type", matches: (entry, value) => entry.tool_type === value },
  { path: "by-tag", parameter: "tag", matches: (entry, value) => entry.tool_tags.includes(value) },
  {
    path: "by-keyword",
    parameter: "keyword",
    // A plain case-insensitive substring (the Python registry passed it to Mongo as a regex: docs/design/compatibility.md#upload-path).
    matches: (entry, value) => entry.tool_search_description.toLowerCase().includes(value.toLowerCase()),
  },
  { path: "by-execution-mode", parameter: "mode", matches: (entry, value) => entry.tool_execution_mode === value },
  { path: "by-policy-uri", parameter: "uri", matches: (entry, value) => entry.tool_policy_rule_uri === value },
];

/**
 * `GET /tools/query/by-{type,tag,keyword,execution-mode,policy-uri}`: bare arrays of latest entries
 * sorted by tool id, as the Python registry did, bounded like `GET /tools` (`limit`, `cursor`); the next page
 * is in `Link: <…>; rel="next"`.
 */
export const queryToolsRoute: RouteModule = (app, deps) => {
  const cursors = registryCursors(deps.config);
  for (const query of QUERIES) {
    const path = `/tools/query/${query.path}`;
    app.get(path, async (c) => {
      const value = c.req.query(query.parameter);
      if (value === undefined || value === "") {
        throw new HttpProblem(400, "Missing query parameter", `GET ${path} needs ?${query.parameter}=<value>.`);
      }
      const limit = parsePageLimit(c.req.query("limit"), MAX_PAGE_ITEMS, MAX_PAGE_ITEMS);
      const scope = listingScope(path, { [query.parameter]: value });
      const cursor = c.req.query("cursor");
      const after = cursor === undefined || cursor === "" ? undefined : await cursors.decode(scope, cursor, isToolId);
      const entries = await deps.reader.allLatest();
      const start = after === undefined ? 0 : indexAfter(entries, after);
      const matches = matchingFrom(entries, start, (entry) => query.matches(entry, value));
      const origin = requestOrigin(c, deps.config);
      const page = boundedPage(matches, (entry) => presentEntryJson(entry, origin), { limit, maxBytes: MAX_PAGE_BYTES });
      const last = page.items.at(-1);
      if (page.more && last !== undefined) setNextPageLink(c, deps.config, await cursors.encode(scope, last.tool_id));
      c.header("Cache-Control", publicReadCacheControl(deps.config));
      return jsonText(c, page.json);
    });
  }
};
