import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import type { FullPassProgress, PartProgress, TableKey, ToolPage } from "../storage/repair-store.js";
import { orphanedArchive } from "./archive-findings.js";
import { PARALLEL_TOOLS } from "./check-tool.js";
import { checkTools } from "./check-tools.js";
import type { DoctorFinding } from "./doctor-report.js";
import { mapBounded } from "./map-bounded.js";
import { emptyRun, type PartRun, type ResolvedSweepOptions, type SweepDeps } from "./sweep-options.js";

export interface FullPassRun extends PartRun {
  /** When the pass this run worked on started (none: no pass was due). */
  startedAt?: string;
  archivesChecked: number;
}

const LISTING_PART = "listing";
const ARCHIVES_PART = "archives";
const segmentPart = (segment: number) => `segment_${segment}`;

/** A pass's parts in the order they run: the table's segments, then the listing index, then the archives. */
function passParts(segments: number): string[] {
  return [...Array.from({ length: segments }, (_, segment) => segmentPart(segment)), LISTING_PART, ARCHIVES_PART];
}

/**
 * The periodic full pass, in parts that resume: the table's keys in `segments` parallel scan
 * segments (every tool checked as `checkTools` checks it), then the listing index (a listed tool
 * with no item under its pointer key is a phantom the table scan cannot meet), then the archive
 * objects (orphans). Each part stores where its next page starts after every page, so a run that
 * reaches its budget stops there and the next run goes on from it: a table of any size is covered
 * across runs, none longer than its budget. A pass starts `fullPassEverySeconds` after the last
 * one started. docs/durability.md#repair-that-scales.
 */
export async function continueFullPass(deps: SweepDeps, options: ResolvedSweepOptions): Promise<FullPassRun> {
  const run: FullPassRun = { ...emptyRun(), archivesChecked: 0 };
  const pass = await currentPass(deps, options);
  if (pass === undefined) return { ...run, finished: true };
  run.startedAt = pass.startedAt;
  const segments = Array.from({ length: options.segments }, (_, segment) => segment);
  const tablePart = (segment: number) =>
    resume(deps, options, pass, segmentPart(segment), run, (start) =>
      deps.repair.scanPage(segment, options.segments, start as TableKey | undefined, options.pageSize),
    );
  await Promise.all(segments.map(tablePart));
  if (!segments.every((segment) => pass.parts[segmentPart(segment)]?.done)) return run;
  await resume(deps, options, pass, LISTING_PART, run, async (start) => {
    const page = await deps.repair.listingPage(start as TableKey | undefined, options.pageSize);
    const present = await deps.repair.withPointerItem(page.toolIds);
    return { ...page, toolIds: page.toolIds.filter((toolId) => !present.has(toolId)) };
  });
  if (!pass.parts[LISTING_PART]?.done) return run;
  await checkArchives(deps, options, pass, run);
  if (!pass.parts[ARCHIVES_PART]?.done) return run;
  await deps.repair.finishPass(pass.startedAt, passParts(options.segments));
  run.finished = true;
  return run;
}

/** The pass under way, or a new one when the last started a period ago; undefined when none is due. */
async function currentPass(deps: SweepDeps, options: ResolvedSweepOptions): Promise<FullPassProgress | undefined> {
  const progress = await deps.repair.progress();
  if (progress.pass !== undefined) return progress.pass;
  const now = options.now();
  const last = progress.lastPassStartedAt === undefined ? undefined : Date.parse(progress.lastPassStartedAt);
  if (last !== undefined && now.getTime() - last < options.fullPassEverySeconds * 1000) return undefined;
  const startedAt = now.toISOString();
  const parts = passParts(options.segments);
  // Another run started one meanwhile: this run leaves the pass to it.
  if (!(await deps.repair.startPass(startedAt, parts))) return undefined;
  return { startedAt, parts: Object.fromEntries(parts.map((part) => [part, { done: false }])) };
}

/** One part's pages, from where it stopped, until it is done or the budget is spent; the tools each page names are checked. */
async function resume(
  deps: SweepDeps,
  options: ResolvedSweepOptions,
  pass: FullPassProgress,
  part: string,
  run: FullPassRun,
  read: (start: TableKey | string | undefined) => Promise<ToolPage>,
): Promise<void> {
  let progress: PartProgress = pass.parts[part] ?? { done: false };
  while (!progress.done && !options.budget.exhausted()) {
    const page = await read(progress.next);
    // A partition's items come together in its segment, but may span two pages: the tool was checked with the first.
    const toolIds = page.toolIds.filter((toolId) => toolId !== progress.lastToolId);
    // The segments run side by side: together they check as many tools at once as the doctor does.
    const parallel = Math.max(1, Math.floor(PARALLEL_TOOLS / options.segments));
    run.findings.push(...(await checkTools(deps, toolIds, options.fix, options.isOld, parallel)));
    run.pages++;
    run.itemsRead += page.itemsRead;
    run.toolsChecked += toolIds.length;
    const lastToolId = page.toolIds.at(-1) ?? progress.lastToolId;
    progress = {
      done: page.next === undefined,
      ...(page.next === undefined ? {} : { next: page.next }),
      ...(lastToolId === undefined ? {} : { lastToolId }),
    };
    pass.parts[part] = progress;
    // Another run finished this pass and started the next: its own progress stands.
    if (!(await deps.repair.savePart(pass.startedAt, part, progress))) return;
  }
}

/**
 * The archive objects, a page at a time from the last key checked: one no version references (as
 * the version items say, `IndexQueries.archiveReferenced`) past the grace period is an orphan.
 */
async function checkArchives(deps: SweepDeps, options: ResolvedSweepOptions, pass: FullPassProgress, run: FullPassRun): Promise<void> {
  let progress: PartProgress = pass.parts[ARCHIVES_PART] ?? { done: false };
  while (!progress.done && !options.budget.exhausted()) {
    const page = await deps.archives.listPage(typeof progress.next === "string" ? progress.next : undefined, options.pageSize);
    const old = page.objects.filter((object) => options.isOld(object.lastModified));
    const orphans = await mapBounded(old, PARALLEL_TOOLS, async (object): Promise<DoctorFinding | undefined> => {
      if (await deps.entries.indexes.archiveReferenced(object.sha256)) return undefined;
      return orphanedArchive(object, options.fix && (await removeArchiveIfUnreferenced(deps, object.sha256)));
    });
    run.findings.push(...orphans.filter((finding) => finding !== undefined));
    run.pages++;
    run.itemsRead += page.objects.length;
    run.archivesChecked += page.objects.length;
    progress = { done: !page.more, ...(page.more && page.lastKey !== undefined ? { next: page.lastKey } : {}) };
    pass.parts[ARCHIVES_PART] = progress;
    if (!(await deps.repair.savePart(pass.startedAt, ARCHIVES_PART, progress))) return;
  }
}
