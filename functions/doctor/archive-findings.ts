import type { ArchiveObject } from "../storage/archive-store.js";
import type { DoctorFinding } from "./doctor-report.js";

/** Who references an archive and the size it should have. */
export interface ArchiveReference {
  size: number;
  by: string;
}

/** A referenced archive that is gone: only the same bundle uploaded again restores it. */
export function missingArchive(sha256: string, reference: ArchiveReference): DoctorFinding {
  return {
    kind: "missing-archive",
    sha256,
    detail: `archives/${sha256} of ${reference.by} is missing; upload the same bundle again to restore it`,
    fixed: false,
  };
}

/** A referenced archive of the wrong size (or sha256): reported, as a missing one is. */
export function damagedArchive(sha256: string, storedSize: number, reference: ArchiveReference): DoctorFinding {
  return {
    kind: "damaged-archive",
    sha256,
    detail:
      `archives/${sha256} of ${reference.by} is damaged (${storedSize} bytes stored, ` +
      `${reference.size} expected); upload the same bundle again to restore it`,
    fixed: false,
  };
}

/** An archive object no version references, past the grace period. */
export function orphanedArchive(object: ArchiveObject, fixed: boolean): DoctorFinding {
  return {
    kind: "orphaned-archive",
    sha256: object.sha256,
    detail: `archives/${object.sha256} (${object.size} bytes, written ${object.lastModified.toISOString()}) is referenced by no version`,
    fixed,
  };
}
