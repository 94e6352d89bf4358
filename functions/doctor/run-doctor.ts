import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import type { ToolPartition } from "../storage/tool-partition.js";
import { damagedArchive, missingArchive, orphanedArchive, type ArchiveReference } from "./archive-findings.js";
import { checkIndexes } from "./check-indexes.js";
import { checkRevision } from "./check-revision.js";
import { archiveReferences, checkPartition, PARALLEL_TOOLS } from "./check-tool.js";
import { mapBounded } from "./map-bounded.js";
import type { DoctorDeps } from "./doctor-deps.js";
import type { DoctorFinding, DoctorReport } from "./doctor-report.js";

export type { DoctorDeps } from "./doctor-deps.js";

export interface DoctorOptions {
  /** Repair what can be repaired (default: only report). */
  fix?: boolean;
  /** Leave objects and pending publishes younger than this alone: they may belong to an upload in flight. Default 3600. */
  graceSeconds?: number;
  /** Read every referenced archive and check its sha256 (default: sizes only, from the listing). */
  verifyArchives?: boolean;
  now?: () => Date;
}

export const DEFAULT_GRACE_SECONDS = 3600;

/**
 * Checks (and with `fix`, repairs) what crashes, timeouts and kills can leave behind, through the
 * same idempotent steps the publish and delete pipelines use, so running it concurrently with
 * live traffic is safe (docs/storage.md, "Doctor"):
 * unfinished publishes and deletes, missing, stale or dangling latest pointers, secondary-index
 * entries that disagree with the table (`check-indexes.ts`), archive objects no version references
 * (orphans, past the grace period), referenced archives that are missing or damaged (reported: the
 * same bundle uploaded again restores them), and a missing revision counter. Every decision rests
 * on the table's items: the indexes are checked against them, never trusted.
 */
export async function runDoctor(deps: DoctorDeps, options: DoctorOptions = {}): Promise<DoctorReport> {
  const fix = options.fix ?? false;
  const graceSeconds = options.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  const now = (options.now?.() ?? new Date()).getTime();
  const isOld = (timestamp: string | Date) => now - new Date(timestamp).getTime() >= graceSeconds * 1000;
  const findings: DoctorFinding[] = [];
  const referenced = new Map<string, ArchiveReference>();
  const partitions = new Map<string, ToolPartition>();

  const toolIds = await deps.entries.indexes.listToolIds();
  // Tools are independent (each repair touches its own partition), so several are checked at once.
  const checked = await mapBounded(toolIds, PARALLEL_TOOLS, (toolId) => checkPartition(deps, toolId, fix, isOld));
  for (const { partition, findings: toolFindings } of checked) {
    findings.push(...toolFindings);
    partitions.set(partition.toolId, partition);
    for (const [sha256, reference] of archiveReferences(partition)) referenced.set(sha256, reference);
  }

  findings.push(...(await checkIndexes(deps, partitions, fix)));

  let archivesChecked = 0;
  const listed = new Set<string>();
  for await (const object of deps.archives.list()) {
    archivesChecked++;
    listed.add(object.sha256);
    const reference = referenced.get(object.sha256);
    if (reference === undefined) {
      if (!isOld(object.lastModified)) continue;
      findings.push(orphanedArchive(object, fix && (await removeArchiveIfUnreferenced(deps, object.sha256))));
      continue;
    }
    const damaged = object.size !== reference.size || (options.verifyArchives === true && !(await deps.archives.isValid(object.sha256)));
    if (damaged) findings.push(damagedArchive(object.sha256, object.size, reference));
  }
  for (const [sha256, reference] of referenced) if (!listed.has(sha256)) findings.push(missingArchive(sha256, reference));

  if (toolIds.length > 0) findings.push(...(await checkRevision(deps, fix)));
  return { fix, graceSeconds, toolsChecked: toolIds.length, archivesChecked, findings };
}
