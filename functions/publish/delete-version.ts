import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import { resolveLatest } from "../catalog/resolve-latest.js";
import { furtherArchives } from "../entry/published-entry.js";
import { HttpProblem } from "../http-problem.js";
import type { DeleteDeps } from "./delete-tool.js";
import { publishInFlight } from "./publish-in-flight.js";

/**
 * `DELETE /tools/{id}/versions/{v}` as steps that a retry, a reader or the doctor finishes
 * (docs/durability.md), each one idempotent single-item write:
 * 1. the version item is marked deleting: readers stop seeing it;
 * 2. the latest pointer moves back to the next highest version if it named this one (`resolveLatest`);
 * 3. the item goes, then its archive unless another version uses it;
 * 4. the change is recorded.
 * A publish of the same version meanwhile finishes the delete first (`publishBundle`). Returns false
 * when there is no such version.
 */
export async function deleteVersion(toolId: string, version: string, deps: DeleteDeps): Promise<boolean> {
  const stored = await deps.entries.reads.getStoredVersion(toolId, version);
  if (stored === undefined) return false;
  if (publishInFlight(stored)) throw publishing(toolId, version);
  if (!stored.deleting && !(await deps.entries.deletion.markDeleting(toolId, version))) return false;
  await finishVersionDeletion(deps, toolId, version, stored.entry.tool_archive_sha256, furtherArchives(stored.entry));
  return true;
}

/**
 * Steps 2-4 for a version marked deleting (by this request, a crashed one, or one the doctor found).
 * `further` are its other platforms' archives: their reference items go before the item, so a crash
 * leaves the item to finish from, never a reference without it.
 */
export async function finishVersionDeletion(
  deps: DeleteDeps,
  toolId: string,
  version: string,
  archiveSha256: string,
  further: readonly string[] = [],
): Promise<void> {
  await resolveLatest(deps.entries, toolId);
  await deps.entries.versions.deleteArchiveReferences(toolId, version, further);
  await deps.entries.deletion.removeDeletingVersion(toolId, version);
  for (const sha256 of new Set([archiveSha256, ...further])) if (sha256 !== "") await removeArchiveIfUnreferenced(deps, sha256);
  await recordCatalogChange(deps, { toolId, kind: "updated" });
}

export function publishing(toolId: string, version: string): HttpProblem {
  return new HttpProblem(409, "Update conflict", `${toolId}@${version} is still being published; retry in a few seconds.`, {
    "Retry-After": "5",
  });
}
