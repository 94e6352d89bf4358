// Lambda entry point of the scheduled sweeper (EventBridge, every 10 minutes): the incremental repair of what
// was written since the last run, then the full pass where it stopped, with the default grace period,
// so orphaned archives and whatever a timed-out Lambda left half-done are repaired without anyone
// running the doctor, and no run outlasts its timeout however large the table (docs/durability.md).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

import { rejectAllTokens } from "../auth/token-verifier.js";
import { loadConfig } from "../config.js";
import { DEFAULT_GRACE_SECONDS } from "../doctor/run-doctor.js";
import { runSweep, type SweepReport } from "../doctor/sweep.js";
import { timeBudget } from "../doctor/sweep-options.js";
import { createRegistryDeps } from "../registry-deps.js";
import { createDynamoDocumentClient } from "../storage/aws-clients.js";
import { RepairStore } from "../storage/repair-store.js";

/** Left of the timeout when a run stops taking new pages: the pages in flight finish and store their progress. */
const STOP_BEFORE_TIMEOUT_MS = 60_000;
/** Without a Lambda context (a direct call): the sweeper's timeout, 5 minutes. */
const DEFAULT_RUN_MS = 300_000;

const config = loadConfig();
const deps = {
  ...createRegistryDeps(config, rejectAllTokens),
  repair: new RepairStore(createDynamoDocumentClient(config), config.tableName),
};

export async function handler(_event?: unknown, context?: { getRemainingTimeInMillis(): number }): Promise<SweepReport> {
  const remaining = context?.getRemainingTimeInMillis() ?? DEFAULT_RUN_MS;
  const report = await runSweep(deps, {
    fix: true,
    graceSeconds: DEFAULT_GRACE_SECONDS,
    budget: timeBudget(remaining - STOP_BEFORE_TIMEOUT_MS),
  });
  const open = report.findings.filter((finding) => !finding.fixed);
  // One JSON line per sweep for the logs; unresolved findings (missing archives) need an upload.
  console.log(
    JSON.stringify({
      message: "registry sweep",
      incremental: report.incremental,
      fullPass: report.fullPass,
      fixed: report.findings.length - open.length,
      open,
    }),
  );
  return report;
}
