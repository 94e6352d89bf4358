import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { resolveLatest } from "../catalog/resolve-latest.js";
import { entrySizeProblem, storageProblems } from "../entry/entry-limits.js";
import { isPlainObject } from "../entry/field-types.js";
import { validateEntryUpdate } from "../entry/tool-entry.js";
import { laterTimestamp } from "../catalog/edit-time.js";
import { presentEntry } from "../catalog/present-entry.js";
import { readJsonBody } from "../http/read-json-body.js";
import { requestOrigin } from "../http/request-origin.js";
import { HttpProblem } from "../http-problem.js";
import { authorizeTool } from "../trust/authorize-tool.js";
import { requireWriter } from "../trust/require-writer.js";
import { signatureAfterEdit } from "../trust/signature-after-edit.js";
import { auditSubject } from "../trust/writer.js";
import { withSearchEmbedding } from "../search/tool-embedding.js";
import { toolIdParam } from "./tool-params.js";
import { toolNotFound } from "./tool-not-found.js";
import type { RouteModule } from "../route-module.js";

const MAX_UPDATE_ATTEMPTS = 5;

/**
 * `PUT /tools/{id}`: updates descriptive fields of the latest version (never code, runtime or
 * schema). The version item is replaced only if nobody edited it since it was read
 * (compare-and-set on `updated_at`), then the pointer follows; a crash between the two is
 * repaired by the next read (docs/storage.md).
 */
export const updateToolRoute: RouteModule = (app, deps) => {
  app.put("/tools/:id", requireWriter(deps, { action: "update" }), async (c) => {
    const toolId = toolIdParam(c);
    await authorizeTool(c, deps, toolId, "update");
    const body = await readJsonBody(c);
    if (body === undefined || body === null || (isPlainObject(body) && Object.keys(body).length === 0)) {
      throw new HttpProblem(
        400,
        "Missing update payload",
        'Send a JSON object of the fields to change, e.g. {"tool_search_description": "..."}.',
      );
    }
    // Before anything walks the body recursively (comparison, storage).
    if (isPlainObject(body)) rejectProblems(storageProblems(body));
    for (let attempt = 0; attempt < MAX_UPDATE_ATTEMPTS; attempt++) {
      // From storage, not the read cache: the edit applies to what is latest now.
      const latest = (await resolveLatest(deps.entries, toolId)).entry;
      if (!latest) throw toolNotFound(toolId);
      auditSubject(c, { version: latest.version });
      // Compared against the entry as GET shows it, so GET → edit → PUT round trips pass.
      const shown = presentEntry(latest, requestOrigin(c, deps.config));
      const changes = validateEntryUpdate(body, shown);
      // Identity and registry-owned fields always come from the stored entry, whatever the body says.
      const { tool_id, version, tool_archive_sha256, tool_archive_integrity, tool_archive_size, published_at } = latest;
      const edited: PublishedEntry = {
        ...latest,
        ...changes,
        ...{ tool_id, version, tool_archive_sha256, tool_archive_integrity, tool_archive_size, published_at },
        updated_at: laterTimestamp(latest.updated_at),
      };
      const { signature: _previous, ...unsigned } = edited;
      const signature = await signatureAfterEdit(c, deps.trust.keys, latest, edited);
      const updated: PublishedEntry = await withSearchEmbedding(
        signature === undefined ? unsigned : { ...unsigned, signature },
        deps.embedder,
      );
      const tooLarge = entrySizeProblem(updated);
      if (tooLarge !== undefined) throw new HttpProblem(413, "Invalid update payload", `${tooLarge}. Shorten the fields you send.`);
      // false: edited or deleted meanwhile; re-read (404 when the whole tool is gone).
      if (await deps.entries.versions.updateVersionEntry(updated, latest.updated_at)) {
        await recordCatalogChange(deps, { toolId, kind: "updated" });
        return c.json({ message: "Tool updated successfully" });
      }
    }
    throw new HttpProblem(409, "Update conflict", `Tool ${toolId} changed repeatedly during the update; retry it.`);
  });
};

function rejectProblems(problems: string[]): void {
  if (problems.length > 0) throw new HttpProblem(422, "Invalid update payload", `${problems.join("; ")}.`);
}
