import { presentEntriesJson, presentEntryJson } from "../catalog/present-entry.js";
import { entryEntityTag, notModified } from "../http/entity-tag.js";
import { jsonText } from "../http/json-text.js";
import { requestOrigin } from "../http/request-origin.js";
import { toolIdParam, versionParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "./route-module.js";

/** `GET /tools/{id}/versions` (newest first) and `GET /tools/{id}/versions/{version}` (with an ETag). */
export const toolVersionsRoute: RouteModule = (app, deps) => {
  app.get("/tools/:id/versions", async (c) => {
    const toolId = toolIdParam(c);
    const versions = await deps.reader.versions(toolId);
    if (versions.length === 0) throw toolNotFound(toolId);
    const origin = requestOrigin(c, deps.config);
    return jsonText(c, presentEntriesJson(versions, origin));
  });

  app.get("/tools/:id/versions/:version", async (c) => {
    const id = toolIdParam(c);
    const version = versionParam(c);
    const entry = await deps.reader.version(id, version);
    if (!entry) throw toolNotFound(id, version);
    // Not immutable: PUT edits the latest version, and a deleted tool's versions can be published again.
    const headers = { "Cache-Control": "no-cache" };
    const tag = entryEntityTag(entry);
    return notModified(c, tag, headers) ?? jsonText(c, presentEntryJson(entry, requestOrigin(c, deps.config)), { ...headers, ETag: tag });
  });
};
