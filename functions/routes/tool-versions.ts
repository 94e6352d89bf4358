import { presentEntryJson } from "../catalog/present-entry.js";
import { boundedPage, MAX_PAGE_BYTES, MAX_PAGE_ITEMS, parsePageLimit } from "../listing/bounded-page.js";
import { setNextPageLink } from "../listing/next-page-link.js";
import { listingScope } from "../listing/page-cursor.js";
import { registryCursors } from "../listing/registry-cursors.js";
import { indexBelowVersion, matchingFrom } from "../listing/sorted-entries.js";
import { publicReadCacheControl } from "../http/edge-cache.js";
import { entryEntityTag, notModified } from "../http/entity-tag.js";
import { jsonText } from "../http/json-text.js";
import { includeYankedParam } from "../http/include-yanked-param.js";
import { requestOrigin } from "../http/request-origin.js";
import { isVersion, toolIdParam, versionParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "../route-module.js";

/**
 * `GET /tools/{id}/versions?include_yanked=&limit=&cursor=` (highest semver first; yanked versions
 * only with `include_yanked=true`, so a tool whose versions are all yanked lists `[]`): a bare
 * array, paged like `GET /tools` (at most `limit` versions, default and maximum 1,000, and within
 * Lambda's response limit by bytes; the next page in `Link: <…>; rel="next"`), and
 * `GET /tools/{id}/versions/{version}` (with an ETag).
 */
export const toolVersionsRoute: RouteModule = (app, deps) => {
  const cursors = registryCursors(deps.config);
  app.get("/tools/:id/versions", async (c) => {
    const toolId = toolIdParam(c);
    const includeYanked = includeYankedParam(c.req.query("include_yanked"));
    const limit = parsePageLimit(c.req.query("limit"), MAX_PAGE_ITEMS, MAX_PAGE_ITEMS);
    const scope = listingScope(`/tools/${toolId}/versions`, { include_yanked: String(includeYanked) });
    const cursor = c.req.query("cursor");
    const after = cursor === undefined || cursor === "" ? undefined : await cursors.decode(scope, cursor, isVersion);
    const versions = await deps.reader.versions(toolId, includeYanked);
    if (versions.length === 0 && (includeYanked || (await deps.reader.versions(toolId, true)).length === 0)) throw toolNotFound(toolId);
    const origin = requestOrigin(c, deps.config);
    const start = after === undefined ? 0 : indexBelowVersion(versions, after);
    const page = boundedPage(
      matchingFrom(versions, start, () => true),
      (entry) => presentEntryJson(entry, origin),
      {
        limit,
        maxBytes: MAX_PAGE_BYTES,
      },
    );
    const last = page.items.at(-1);
    if (page.more && last !== undefined) setNextPageLink(c, deps.config, await cursors.encode(scope, last.version));
    c.header("Cache-Control", publicReadCacheControl(deps.config));
    return jsonText(c, page.json);
  });

  app.get("/tools/:id/versions/:version", async (c) => {
    const id = toolIdParam(c);
    const version = versionParam(c);
    const entry = await deps.reader.version(id, version);
    if (!entry) throw toolNotFound(id, version);
    // Not immutable: PUT edits the latest version, and a deleted tool's versions can be published again.
    const headers = { "Cache-Control": publicReadCacheControl(deps.config) };
    const tag = entryEntityTag(entry);
    return notModified(c, tag, headers) ?? jsonText(c, presentEntryJson(entry, requestOrigin(c, deps.config)), { ...headers, ETag: tag });
  });
};
