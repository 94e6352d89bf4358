import { deleteTool } from "../publish/delete-tool.js";
import { authorizeTool } from "../trust/authorize-tool.js";
import { requireWriter } from "../trust/require-writer.js";
import { toolIdParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "../route-module.js";

/**
 * `DELETE /tools/{id}`: removes every version; the id may be uploaded again (seed behaviour).
 * Retrying a DELETE that was cut short finishes it (see `upload/delete-tool.ts`).
 */
export const deleteToolRoute: RouteModule = (app, deps) => {
  app.delete("/tools/:id", requireWriter(deps, { action: "delete" }), async (c) => {
    const toolId = toolIdParam(c);
    await authorizeTool(c, deps, toolId, "delete");
    if (!(await deleteTool(toolId, deps))) throw toolNotFound(toolId);
    return c.json({ message: "Tool deleted successfully" });
  });
};
