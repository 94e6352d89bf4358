import { requireWriteToken } from "../auth/require-write-token.js";
import { deleteTool } from "../publish/delete-tool.js";
import { toolIdParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "./route-module.js";

/**
 * `DELETE /tools/{id}`: removes every version; the id may be uploaded again (seed behaviour).
 * Retrying a DELETE that was cut short finishes it (see `upload/delete-tool.ts`).
 */
export const deleteToolRoute: RouteModule = (app, deps) => {
  app.delete("/tools/:id", requireWriteToken(deps.verifyToken), async (c) => {
    const toolId = toolIdParam(c);
    if (!(await deleteTool(toolId, deps))) throw toolNotFound(toolId);
    return c.json({ message: "Tool deleted successfully" });
  });
};
