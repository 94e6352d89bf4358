import { requireWriteToken } from "../auth/require-write-token.js";
import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "./route-module.js";

/** `DELETE /tools/{id}`: removes every version; the id may be uploaded again (seed behaviour). */
export const deleteToolRoute: RouteModule = (app, deps) => {
  app.delete("/tools/:id", requireWriteToken(deps.verifyToken), async (c) => {
    const toolId = c.req.param("id");
    const deleted = await deps.entries.deleteTool(toolId);
    if (deleted.length === 0) throw toolNotFound(toolId);
    for (const sha256 of new Set(deleted.map((entry) => entry.tool_archive_sha256))) {
      await removeArchiveIfUnreferenced(deps, sha256);
    }
    await recordCatalogChange(deps, { toolId, kind: "deleted" });
    return c.json({ message: "Tool deleted successfully" });
  });
};
