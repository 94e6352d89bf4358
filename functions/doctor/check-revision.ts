import type { DoctorDeps } from "./doctor-deps.js";
import type { DoctorFinding } from "./doctor-report.js";

/** With tools stored, the catalog revision counter must exist: other instances follow it to see changes. */
export async function checkRevision(deps: DoctorDeps, fix: boolean): Promise<DoctorFinding[]> {
  if ((await deps.entries.revision.readRevisionLog()).revision !== 0) return [];
  if (fix) await deps.entries.revision.bumpRevision();
  return [
    {
      kind: "revision-drift",
      detail: "the catalog revision counter is missing although tools are stored, so other instances cannot tell that anything changed",
      fixed: fix,
    },
  ];
}
