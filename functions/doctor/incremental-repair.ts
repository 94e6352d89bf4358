import { checkTools } from "./check-tools.js";
import { emptyRun, type PartRun, type ResolvedSweepOptions, type SweepDeps } from "./sweep-options.js";

/** Without a checkpoint (a first sweep), the incremental repair looks this far back; the full pass covers what is older. */
const FIRST_LOOKBACK_SECONDS = 86_400;

/**
 * Checks only the tools written to since the last run, named by the audit log: every write request
 * stores its event before it writes anything, and the event names the tool before the tool's items
 * are touched (the path's id at once, an upload's id beside its first write), so whatever a crash,
 * a timeout or a failed request left half done belongs to a tool an event names. Events are taken
 * once they are older than the grace period plus the longest a request can run (`settleSeconds`):
 * by then each write they announce has finished or died, and its leftovers are old enough to repair.
 * The checkpoint (the last event's sort key) is stored after every page, so a run that runs out
 * of budget leaves the rest to the next. docs/durability.md#repair-that-scales.
 */
export async function repairIncrementally(deps: SweepDeps, options: ResolvedSweepOptions): Promise<PartRun> {
  const run = emptyRun();
  const now = options.now().getTime();
  const settled = new Date(now - (options.graceSeconds + options.settleSeconds) * 1000).toISOString();
  // Sort keys are `<ISO time>#<uuid>`: every event of that millisecond or before sorts below `<time>$`.
  const upTo = `${settled}$`;
  let after =
    (await deps.repair.progress()).auditAfter ??
    new Date(now - (options.graceSeconds + options.settleSeconds + FIRST_LOOKBACK_SECONDS) * 1000).toISOString();
  // A longer grace period than the last run's: nothing new has settled yet (and BETWEEN refuses a range upside down).
  if (after >= upTo) return { ...run, finished: true };
  while (!options.budget.exhausted()) {
    const page = await deps.repair.auditPage(after, upTo, options.pageSize);
    run.pages++;
    run.itemsRead += page.itemsRead;
    run.toolsChecked += page.toolIds.length;
    run.findings.push(...(await checkTools(deps, page.toolIds, options.fix, options.isOld)));
    if (!page.more) {
      await deps.repair.saveAuditAfter(upTo);
      run.finished = true;
      break;
    }
    if (page.lastKey !== undefined) {
      await deps.repair.saveAuditAfter(page.lastKey);
      after = page.lastKey;
    }
  }
  return run;
}
