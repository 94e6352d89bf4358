import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import { resolveLatest } from "../catalog/resolve-latest.js";
import { finishDeletion } from "../publish/delete-tool.js";
import { finishVersionDeletion } from "../publish/delete-version.js";
import { highestVersion, latestCandidates, visibleVersions, type ToolPartition, type VersionSummary } from "../storage/tool-partition.js";
import type { ArchiveReference } from "./archive-findings.js";
import type { DoctorDeps } from "./doctor-deps.js";
import type { DoctorFinding } from "./doctor-report.js";

/** Tools checked at once: a few reads (and repairs) of its own partition each, so a sweep is not one Query after another. */
export const PARALLEL_TOOLS = 16;

/** One tool checked (and with `fix` repaired), and its partition as it is afterwards. */
export async function checkPartition(
  deps: DoctorDeps,
  toolId: string,
  fix: boolean,
  isOld: (timestamp: string) => boolean,
): Promise<{ partition: ToolPartition; findings: DoctorFinding[] }> {
  const findings: DoctorFinding[] = [];
  let partition = await deps.entries.reads.readPartition(toolId);
  if (await checkTool(deps, partition, fix, isOld, findings)) partition = await deps.entries.reads.readPartition(toolId);
  return { partition, findings };
}

/** The archives the versions readers see reference, with the size each should have and who references it. */
export function archiveReferences(partition: ToolPartition): Map<string, ArchiveReference> {
  const referenced = new Map<string, ArchiveReference>();
  for (const version of visibleVersions(partition)) {
    const by = `${partition.toolId}@${version.version}`;
    if (version.archiveSha256 !== "") referenced.set(version.archiveSha256, { size: version.archiveSize, by });
    for (const archive of version.furtherArchives) referenced.set(archive.sha256, { size: archive.size, by });
  }
  return referenced;
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
