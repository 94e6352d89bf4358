import { damagedArchive, missingArchive } from "./archive-findings.js";
import { checkIndexes } from "./check-indexes.js";
import { archiveReferences, checkPartition, PARALLEL_TOOLS } from "./check-tool.js";
import type { DoctorDeps } from "./doctor-deps.js";
import type { DoctorFinding } from "./doctor-report.js";
import { mapBounded } from "./map-bounded.js";

/**
 * Some tools checked as the doctor checks every tool, reading only what is theirs: each partition
 * (and its repairs), their entries in both secondary indexes, and the size of each archive they
 * reference (one HEAD each). What the incremental repair and each page of the full pass run, so
 * their cost follows the tools they check, not the table.
 */
export async function checkTools(
  deps: DoctorDeps,
  toolIds: readonly string[],
  fix: boolean,
  isOld: (timestamp: string) => boolean,
  /** Tools checked at once (the full pass divides the doctor's 16 among its segments). */
  parallel = PARALLEL_TOOLS,
): Promise<DoctorFinding[]> {
  const checked = await mapBounded(toolIds, parallel, (toolId) => checkPartition(deps, toolId, fix, isOld));
  const findings = checked.flatMap((check) => check.findings);
  findings.push(...(await checkIndexes(deps, new Map(checked.map(({ partition }) => [partition.toolId, partition])), fix, "these tools")));
  const references = checked.flatMap(({ partition }) => [...archiveReferences(partition)]);
  const sizes = await mapBounded(references, parallel, ([sha256]) => deps.archives.storedSize(sha256));
  references.forEach(([sha256, reference], index) => {
    const size = sizes[index];
    if (size === undefined) findings.push(missingArchive(sha256, reference));
    else if (size !== reference.size) findings.push(damagedArchive(sha256, size, reference));
  });
  return findings;
}
