/** What the doctor can find (docs/storage.md, "Doctor"). */
export type FindingKind =
  | "unfinished-publish"
  | "missing-pointer"
  | "stale-pointer"
  | "dangling-pointer"
  | "unfinished-delete"
  | "unfinished-version-delete"
  | "orphaned-archive"
  | "damaged-archive"
  | "missing-archive"
  | "phantom-index-entry"
  | "missing-index-entry"
  | "revision-drift";

export interface DoctorFinding {
  kind: FindingKind;
  toolId?: string;
  version?: string;
  sha256?: string;
  /** What is wrong, and (when it cannot be fixed here) what fixes it. */
  detail: string;
  /** Whether this run repaired it (only with `fix`). */
  fixed: boolean;
}

export interface DoctorReport {
  /** Whether repairs were applied, or the run only looked. */
  fix: boolean;
  /** Objects and pending publishes younger than this were left alone (in-flight uploads). */
  graceSeconds: number;
  toolsChecked: number;
  archivesChecked: number;
  findings: DoctorFinding[];
}

/** Findings a repair could not (or, without `fix`, did not) resolve. */
export function unresolved(report: DoctorReport): DoctorFinding[] {
  return report.findings.filter((finding) => !finding.fixed);
}
