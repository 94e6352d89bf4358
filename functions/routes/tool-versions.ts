import { presentEntriesJson, presentEntryJson } from "../catalog/present-entry.js";
import { entryEntityTag, notModified } from "../http/entity-tag.js";
import { jsonText } from "../http/json-text.js";
import { HttpProblem } from "../http-problem.js";
import { requestOrigin } from "../http/request-origin.js";
import { toolIdParam, versionParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "../route-module.js";

/**
 * `GET /tools/{id}/versions` (newest first; yanked versions only with `?include_yanked=true`, so a
 * tool whose versions are all yanked lists `[]`) and `GET /tools/{id}/versions/{version}` (with an ETag). */
export const toolVersionsRoute: RouteModule = (app, deps) => {
  app.get("/tools/:id/versions", async (c) => {
    const toolId = toolIdParam(c);
    const includeYanked = includeYankedParam(c.req.query("include_yanked"));
    const versions = await deps.reader.versions(toolId, includeYanked);
    if (versions.length === 0 && (includeYanked || (await deps.reader.versions(toolId, true)).length === 0)) throw toolNotFound(toolId);
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

function includeYankedParam(value: string | undefined): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  throw new HttpProblem(
    400,
    "Invalid include_yanked",
    `include_yanked must be "true" or "false", got ${JSON.stringify(value.slice(0, 40))}.`,
  );
}
