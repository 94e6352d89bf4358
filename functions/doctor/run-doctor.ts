import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import { resolveLatest } from "../catalog/resolve-latest.js";
import { highestVersion, latestCandidates, visibleVersions, type ToolPartition, type VersionSummary } from "../storage/tool-partition.js";
import { finishDeletion } from "../publish/delete-tool.js";
import { finishVersionDeletion } from "../publish/delete-version.js";
import { checkIndexes } from "./check-indexes.js";
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

/** Tools checked at once: a few reads (and repairs) of its own partition each, so the sweep is not one Query after another. */
const PARALLEL_TOOLS = 16;

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
  const referenced = new Map<string, { size: number; by: string }>();
  const partitions = new Map<string, ToolPartition>();

  const toolIds = await deps.entries.indexes.listToolIds();
  // Tools are independent (each repair touches its own partition), so several are checked at once.
  const checked = await mapBounded(toolIds, PARALLEL_TOOLS, async (toolId) => {
    const toolFindings: DoctorFinding[] = [];
    let partition = await deps.entries.reads.readPartition(toolId);
    if (await checkTool(deps, partition, fix, isOld, toolFindings)) partition = await deps.entries.reads.readPartition(toolId);
    return { partition, toolFindings };
  });
  for (const { partition, toolFindings } of checked) {
    findings.push(...toolFindings);
    partitions.set(partition.toolId, partition);
    for (const version of visibleVersions(partition)) {
      if (version.archiveSha256 !== "")
        referenced.set(version.archiveSha256, { size: version.archiveSize, by: `${partition.toolId}@${version.version}` });
      for (const archive of version.furtherArchives)
        referenced.set(archive.sha256, { size: archive.size, by: `${partition.toolId}@${version.version}` });
    }
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
      const fixed = fix && (await removeArchiveIfUnreferenced(deps, object.sha256));
      findings.push({
        kind: "orphaned-archive",
        sha256: object.sha256,
        detail:
          `archives/${object.sha256} (${object.size} bytes, written ` + `${object.lastModified.toISOString()}) is referenced by no version`,
        fixed,
      });
      continue;
    }
    const damaged = object.size !== reference.size || (options.verifyArchives === true && !(await deps.archives.isValid(object.sha256)));
    if (damaged) {
      const fixed = false;
      findings.push({
        kind: "damaged-archive",
        sha256: object.sha256,
        detail:
          `archives/${object.sha256} of ${reference.by} is damaged (${object.size} bytes ` +
          `stored, ${reference.size} expected); upload the same bundle again to restore it`,
        fixed,
      });
    }
  }
  for (const [sha256, reference] of referenced) {
    if (!listed.has(sha256)) {
      findings.push({
        kind: "missing-archive",
        sha256,
        detail: `archives/${sha256} of ${reference.by} is missing; upload the same bundle again to restore it`,
        fixed: false,
      });
    }
  }

  if (toolIds.length > 0 && (await deps.entries.revision.readRevisionLog()).revision === 0) {
    if (fix) await deps.entries.revision.bumpRevision();
    findings.push({
      kind: "revision-drift",
      detail: "the catalog revision counter is missing although tools are stored, so other instances cannot tell that anything changed",
      fixed: fix,
    });
  }
  return { fix, graceSeconds, toolsChecked: toolIds.length, archivesChecked, findings };
}

/** One tool's items; returns whether anything was repaired (the caller re-reads the partition). */
async function checkTool(
  deps: DoctorDeps,
  found: ToolPartition,
  fix: boolean,
  isOld: (timestamp: string) => boolean,
  findings: DoctorFinding[],
): Promise<boolean> {
  const { toolId } = found;
  if (found.pointer?.kind === "tombstone") {
    if (fix) await finishDeletion(deps, found);
    findings.push({
      kind: "unfinished-delete",
      toolId,
      detail: `a delete of ${found.pointer.deleting.length} version(s) did not finish; the tool is hidden until it does`,
      fixed: fix,
    });
    return fix;
  }
  let repaired = false;
  for (const version of found.versions.filter((candidate) => candidate.deleting)) {
    if (fix)
      await finishVersionDeletion(
        deps,
        toolId,
        version.version,
        version.archiveSha256,
        version.furtherArchives.map((archive) => archive.sha256),
      );
    findings.push({
      kind: "unfinished-version-delete",
      toolId,
      version: version.version,
      detail: `the delete of ${toolId}@${version.version} stopped before it finished; the version is hidden until it does`,
      fixed: fix,
    });
    repaired ||= fix;
  }
  for (const version of found.versions.filter((candidate) => candidate.pending && !candidate.deleting && isOld(candidate.updatedAt))) {
    if (fix) await finishPublish(deps, toolId, version);
    findings.push({
      kind: "unfinished-publish",
      toolId,
      version: version.version,
      detail: `the publish of ${toolId}@${version.version} stopped before it finished`,
      fixed: fix,
    });
    repaired ||= fix;
  }
  // Finishing a publish moves the pointer too: judge the pointer as it is now.
  const partition = repaired ? await deps.entries.reads.readPartition(toolId) : found;
  const best = highestVersion(latestCandidates(partition));
  const pointer = partition.pointer?.kind === "pointer" ? partition.pointer : undefined;
  const problem =
    best === undefined
      ? pointer === undefined
        ? undefined
        : ({
            kind: "dangling-pointer",
            detail: `the latest pointer names ${pointer.version}, which is not stored, being deleted or yanked`,
          } as const)
      : pointer === undefined
        ? ({ kind: "missing-pointer", detail: `no latest pointer: the tool is not listed although ${best.version} is stored` } as const)
        : pointer.version !== best.version || pointer.updatedAt !== best.updatedAt
          ? ({
              kind: "stale-pointer",
              detail:
                `the latest pointer names ${pointer.version} (edited ${pointer.updatedAt}), the ` +
                `highest version that is not yanked is ${best.version} (edited ${best.updatedAt})`,
            } as const)
          : undefined;
  if (problem !== undefined) {
    const fixed = fix && (await resolveLatest(deps.entries, toolId)).repaired;
    if (fixed) await recordCatalogChange(deps, { toolId, kind: "updated" });
    findings.push({ ...problem, toolId, fixed });
    repaired ||= fixed;
  }
  return repaired;
}

/** The steps a publish runs after its version item, for a version whose publisher is gone. */
async function finishPublish(deps: DoctorDeps, toolId: string, version: VersionSummary): Promise<void> {
  const stored = await deps.entries.reads.getStoredVersion(toolId, version.version);
  if (stored === undefined) return;
  await deps.entries.pointer.advancePointer(stored.entry);
  await recordCatalogChange(deps, { toolId, kind: "published" }, () => deps.entries.versions.markPublished(toolId, version.version));
}
