import { randomUUID } from "node:crypto";
import { recordCatalogChange, type ChangeRecordingDeps } from "../catalog/record-catalog-change.js";
import { removeArchiveIfUnreferenced } from "../catalog/remove-unreferenced-archive.js";
import { resolveLatest } from "../catalog/resolve-latest.js";
import type { RegistryDeps } from "../registry-deps.js";
import type { ToolPartition, VersionSummary } from "../storage/tool-partition.js";

export type DeleteDeps = Pick<RegistryDeps, "entries" | "archives"> & ChangeRecordingDeps;

/**
 * The most versions one tombstone claims. It lists them in one item, which DynamoDB caps at 400 KB:
 * 1,000 versions of at most 128 characters take about 131 KB.
 */
export const MAX_CLAIMED_VERSIONS = 1_000;

/**
 * `DELETE /tools/{id}` as a state machine that a retry (or the doctor) finishes:
 * 1. a tombstone on the pointer key claims every version stored now (readers stop showing them,
 *    nothing can recreate the pointer);
 * 2. the claimed version items go, then their archives unless another version uses them;
 * 3. the tombstone goes, the change is recorded;
 * 4. versions uploaded while it ran were not claimed: they stay and get their pointer back.
 * A crash anywhere leaves a tombstone, which the next DELETE, upload or `doctor --fix` completes.
 * A tool with more versions than one tombstone can list first loses its lowest ones outright (they
 * are not its latest, so readers see a tool with fewer old versions, never a wrong latest; a crash
 * there leaves such a tool, and the retried DELETE goes on). Returns false when there was nothing
 * to delete.
 */
export async function deleteTool(toolId: string, deps: DeleteDeps, maxClaimed = MAX_CLAIMED_VERSIONS): Promise<boolean> {
  let partition = await deps.entries.reads.readPartition(toolId);
  if (partition.versions.length === 0 && partition.pointer === undefined) return false;
  if (partition.versions.length > maxClaimed) partition = await pruneLowestVersions(deps, partition, maxClaimed);
  const claimed = partition.versions.map((version) => version.version);
  const tombstone = { deleting: claimed, deletionId: randomUUID() };
  await deps.entries.deletion.beginDeletion(toolId, tombstone.deleting, tombstone.deletionId);
  await finishClaimedDeletion(deps, { ...partition, versions: partition.versions.map((v) => ({ ...v, doomed: true })) }, tombstone);
  return claimed.length > 0 || partition.pointer?.kind === "tombstone";
}

/** Deletes all but the `keep` highest versions (and archives no other version uses); returns what is left. */
async function pruneLowestVersions(deps: DeleteDeps, partition: ToolPartition, keep: number): Promise<ToolPartition> {
  const byRank = [...partition.versions].sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0));
  const lowest = byRank.slice(0, byRank.length - keep);
  await removeVersions(deps, partition.toolId, lowest);
  return { ...partition, versions: byRank.slice(byRank.length - keep) };
}

/**
 * The version items go (their further platforms' reference items first, so a crash leaves an item
 * to finish from), then every archive of theirs no other version uses.
 */
async function removeVersions(
  deps: DeleteDeps,
  toolId: string,
  versions: readonly VersionSummary[],
  names: readonly string[] = versions.map((version) => version.version),
): Promise<void> {
  for (const version of versions) {
    const further = version.furtherArchives.map((archive) => archive.sha256);
    if (further.length > 0) await deps.entries.versions.deleteArchiveReferences(toolId, version.version, further);
  }
  await deps.entries.deletion.deleteVersions(toolId, names);
  const archives = versions.flatMap((version) => [version.archiveSha256, ...version.furtherArchives.map((archive) => archive.sha256)]);
  for (const sha256 of new Set(archives)) if (sha256 !== "") await removeArchiveIfUnreferenced(deps, sha256);
}

/** Completes the deletion that the tombstone in `partition` describes (a crashed or concurrent one). */
export async function finishDeletion(deps: DeleteDeps, partition: ToolPartition): Promise<void> {
  const pointer = partition.pointer;
  if (pointer?.kind !== "tombstone") return;
  await finishClaimedDeletion(deps, partition, pointer);
}

async function finishClaimedDeletion(
  deps: DeleteDeps,
  partition: ToolPartition,
  tombstone: { deleting: readonly string[]; deletionId: string },
): Promise<void> {
  const { toolId } = partition;
  const claimed = new Set(tombstone.deleting);
  await removeVersions(
    deps,
    toolId,
    partition.versions.filter((version) => claimed.has(version.version)),
    tombstone.deleting,
  );
  await deps.entries.deletion.endDeletion(toolId, tombstone.deletionId);
  await recordCatalogChange(deps, { toolId, kind: "deleted" });
  // Versions published while the delete ran were not claimed: they get their pointer back.
  const survivors = await resolveLatest(deps.entries, toolId);
  if (survivors.repaired) await recordCatalogChange(deps, { toolId, kind: "published" });
}
