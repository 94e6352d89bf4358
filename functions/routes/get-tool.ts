import { presentEntryJson } from "../catalog/present-entry.js";
import { publicReadCacheControl } from "../http/edge-cache.js";
import { entryEntityTag, notModified } from "../http/entity-tag.js";
import { jsonText } from "../http/json-text.js";
import { requestOrigin } from "../http/request-origin.js";
import { toolIdParam } from "./tool-params.js";
import { allYanked, toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "../route-module.js";

/** `GET /tools/{id}`: the latest version's entry (the hot path: cached entry, memoised JSON), with an ETag. */
export const getToolRoute: RouteModule = (app, deps) => {
  app.get("/tools/:id", async (c) => {
    const toolId = toolIdParam(c);
    const entry = await deps.reader.latest(toolId);
    if (!entry) throw (await deps.reader.versions(toolId, true)).length > 0 ? allYanked(toolId) : toolNotFound(toolId);
    const tag = entryEntityTag(entry);
    const headers = { "Cache-Control": publicReadCacheControl(deps.config) };
    return notModified(c, tag, headers) ?? jsonText(c, presentEntryJson(entry, requestOrigin(c, deps.config)), { ...headers, ETag: tag });
  });
};
