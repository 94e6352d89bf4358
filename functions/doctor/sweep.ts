import { checkRevision } from "./check-revision.js";
import type { DoctorFinding } from "./doctor-report.js";
import { continueFullPass, type FullPassRun } from "./full-pass.js";
import { repairIncrementally } from "./incremental-repair.js";
import { emptyRun, resolveSweepOptions, type PartRun, type SweepDeps, type SweepOptions } from "./sweep-options.js";

export interface SweepReport {
  fix: boolean;
  graceSeconds: number;
  incremental: Omit<PartRun, "findings">;
  fullPass: Omit<FullPassRun, "findings">;
  findings: DoctorFinding[];
}

/**
 * One run of the scheduled repair (the sweeper): first the incremental repair of what the audit
 * log says was written since the last run, then, with what is left of the budget, the full pass
 * where it stopped. Both store their progress as they go, so no run needs to finish either.
 */
export async function runSweep(deps: SweepDeps, options: SweepOptions): Promise<SweepReport> {
  const resolved = resolveSweepOptions(options);
  const { findings: changed, ...incremental } = await repairIncrementally(deps, resolved);
  const { findings: swept, ...fullPass } = resolved.incrementalOnly
    ? { ...emptyRun(), archivesChecked: 0 }
    : await continueFullPass(deps, resolved);
  const findings = [...changed, ...swept];
  if (incremental.toolsChecked + fullPass.toolsChecked > 0) findings.push(...(await checkRevision(deps, resolved.fix)));
  return { fix: resolved.fix, graceSeconds: resolved.graceSeconds, incremental, fullPass, findings };
}
