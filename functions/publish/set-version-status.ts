import { laterTimestamp } from "../catalog/edit-time.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { recordCatalogChange, type ChangeRecordingDeps } from "../catalog/record-catalog-change.js";
import { resolveLatest } from "../catalog/resolve-latest.js";
import { withStatus, type StatusChange } from "../entry/status-change.js";
import { HttpProblem } from "../http-problem.js";
import { publishing } from "./delete-version.js";
import { publishInFlight } from "./publish-in-flight.js";

const MAX_ATTEMPTS = 5;

/**
 * Sets a version's status (docs/design/publisher-trust.md, "Version lifecycle"): a
 * compare-and-set of its entry on `updated_at` (a concurrent edit makes it re-read), then the
 * latest pointer settles (`resolveLatest`: back to the next highest version when the latest was
 * yanked, forward when a higher one is active again), then the change is recorded. A crash after
 * the first write is repaired by the next read or the doctor. Returns undefined when there is no
 * such version.
 */
export async function setVersionStatus(
  deps: ChangeRecordingDeps,
  toolId: string,
  version: string,
  change: StatusChange,
): Promise<PublishedEntry | undefined> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const stored = await deps.entries.reads.getStoredVersion(toolId, version);
    if (stored === undefined || stored.deleting) return undefined;
    if (publishInFlight(stored)) throw publishing(toolId, version);
    const updated = withStatus(stored.entry, change, laterTimestamp(stored.entry.updated_at));
    if (await deps.entries.versions.updateVersionEntry(updated, stored.entry.updated_at)) {
      await resolveLatest(deps.entries, toolId);
      await recordCatalogChange(deps, { toolId, kind: "updated" });
      return updated;
    }
  }
  throw new HttpProblem(409, "Update conflict", `${toolId}@${version} changed repeatedly during the status change; retry it.`);
}
