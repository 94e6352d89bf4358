import { presentEntry } from "../catalog/present-entry.js";
import type { VersionStatus } from "../entry/published-entry.js";
import { parseStatusChange } from "../entry/status-change.js";
import { readJsonBody } from "../http/read-json-body.js";
import { requestOrigin } from "../http/request-origin.js";
import { deleteVersion } from "../publish/delete-version.js";
import { setVersionStatus } from "../publish/set-version-status.js";
import { authorizeTool } from "../trust/authorize-tool.js";
import { requireWriter } from "../trust/require-writer.js";
import type { WriteAction } from "../auth/write-action.js";
import { auditSubject } from "../trust/writer.js";
import type { RouteModule } from "../route-module.js";
import { toolIdParam, versionParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";

/**
 * One version's lifecycle (docs/design/publisher-trust.md): `PATCH /tools/{id}/versions/{v}` sets
 * its status (deprecated with a message, yanked with a reason, or active again), `DELETE` removes
 * just that version; latest moves to the next highest version that is not yanked.
 */
export const versionLifecycleRoute: RouteModule = (app, deps) => {
  // Which status it sets is only known once the body is read: until then the event says "status-change".
  app.patch("/tools/:id/versions/:version", requireWriter(deps, { action: "status-change" }), async (c) => {
    const toolId = toolIdParam(c);
    const version = versionParam(c);
    const change = parseStatusChange(await readJsonBody(c));
    const stored = await deps.entries.reads.getStoredVersion(toolId, version);
    const current: VersionStatus = stored?.entry.status ?? "active";
    auditSubject(c, { action: change.status === "active" ? "activate" : ACTION_SETTING[change.status] });
    await authorizeTool(c, deps, toolId, actionFor(change.status, current), version);
    const updated = stored === undefined || stored.deleting ? undefined : await setVersionStatus(deps, toolId, version, change);
    if (updated === undefined) throw toolNotFound(toolId, version);
    return c.json(presentEntry(updated, requestOrigin(c, deps.config)));
  });

  app.delete("/tools/:id/versions/:version", requireWriter(deps, { action: "delete" }), async (c) => {
    const toolId = toolIdParam(c);
    const version = versionParam(c);
    await authorizeTool(c, deps, toolId, "delete", version);
    if (!(await deleteVersion(toolId, version, deps))) throw toolNotFound(toolId, version);
    return c.json({ message: "Version deleted successfully", tool_id: toolId, version });
  });
};

const ACTION_SETTING: Record<Exclude<VersionStatus, "active">, WriteAction> = { deprecated: "deprecate", yanked: "yank" };

/** Setting a status needs its action; setting a version back to active needs the action that set its current status. */
function actionFor(target: VersionStatus, current: VersionStatus): WriteAction {
  if (target !== "active") return ACTION_SETTING[target];
  return current === "active" ? "deprecate" : ACTION_SETTING[current];
}
