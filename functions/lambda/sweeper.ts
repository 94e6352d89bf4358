// Lambda entry point of the scheduled sweeper (EventBridge, hourly): `registry doctor --fix` with the
// default grace period, so orphaned archives and whatever a timed-out Lambda left half-done are
// repaired without anyone running the doctor (docs/durability.md).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { rejectAllTokens } from "../auth/token-verifier.js";
import { loadConfig } from "../config.js";
import type { DoctorReport } from "../doctor/doctor-report.js";
import { DEFAULT_GRACE_SECONDS, runDoctor } from "../doctor/run-doctor.js";
import { createRegistryDeps } from "../registry-deps.js";

const deps = createRegistryDeps(loadConfig(), rejectAllTokens);

export async function handler(): Promise<DoctorReport> {
  const report = await runDoctor(deps, { fix: true, graceSeconds: DEFAULT_GRACE_SECONDS });
  const open = report.findings.filter((finding) => !finding.fixed);
  // One JSON line per sweep for the logs; unresolved findings (missing archives) need an upload.
  console.log(
    JSON.stringify({
      message: "registry sweep",
      toolsChecked: report.toolsChecked,
      archivesChecked: report.archivesChecked,
      fixed: report.findings.length - open.length,
      open,
    }),
  );
  return report;
}
