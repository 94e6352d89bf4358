import { requireWriteToken } from "../auth/require-write-token.js";
import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import { isPlainObject } from "../entry/field-types.js";
import { validateEntryUpdate } from "../entry/tool-entry.js";
import { presentEntry } from "../catalog/present-entry.js";
import { readJsonBody } from "../http/read-json-body.js";
import { requestOrigin } from "../http/request-origin.js";
import { RegistryError } from "../http/registry-error.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "./route-module.js";

const MAX_UPDATE_ATTEMPTS = 5;

/** `PUT /tools/{id}`: updates descriptive fields of the latest version (never code, runtime or schema). */
export const updateToolRoute: RouteModule = (app, deps) => {
  app.put("/tools/:id", requireWriteToken(deps.verifyToken), async (c) => {
    const toolId = c.req.param("id");
    const body = await readJsonBody(c);
    if (body === undefined || body === null || (isPlainObject(body) && Object.keys(body).length === 0)) {
      throw new RegistryError(400, "Missing update payload", 'Send a JSON object of the fields to change, e.g. {"tool_search_description": "..."}.');
    }
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      const latest = await deps.entries.getLatest(toolId);
      if (!latest) throw toolNotFound(toolId);
      // Compared against the entry as GET shows it, so GET → edit → PUT round trips pass.
      const shown = presentEntry(latest, requestOrigin(c, deps.config));
      const changes = validateEntryUpdate(body, shown);
      // Identity and registry-owned fields always come from the stored entry, whatever the body says.
      const { tool_id, version, tool_archive_sha256, tool_archive_integrity, tool_archive_size, published_at } = latest;
      const updated = {
        ...latest,
        ...changes,
        ...{ tool_id, version, tool_archive_sha256, tool_archive_integrity, tool_archive_size, published_at },
        updated_at: new Date().toISOString(),
      };
      // false: that version was deleted meanwhile; re-read (404 when the whole tool is gone).
      if (await deps.entries.replaceVersion(updated)) {
        await recordCatalogChange(deps, { toolId, kind: "updated" });
        return c.json({ message: "Tool updated successfully" });
      }
    }
    throw new RegistryError(409, "Update conflict", `Tool ${toolId} changed repeatedly during the update; retry it.`);
  });
};
