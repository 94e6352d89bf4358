import { recordCatalogChange } from "../catalog/record-catalog-change.js";
import type { ArchiveIndexEntry, LatestIndexEntry } from "../storage/index-queries.js";
import { ARCHIVE_INDEX, LATEST_INDEX } from "../storage/table-schema.js";
import type { ToolPartition } from "../storage/tool-partition.js";
import type { DoctorFinding } from "./doctor-report.js";
import type { DoctorDeps } from "./doctor-deps.js";

/**
 * The secondary indexes against the table, whose items are the truth (docs/durability.md, "Repair
 * trusts only base items"). dynalite writes an index entry before its item and removes it before
 * the item, so a kill between the two leaves an entry naming an item that is not stored (a
 * phantom) or an item its index lacks; DynamoDB's indexes lag their items for a moment.
 * - The listing index (`latest-by-tool-id`) is what `GET /tools` and the queries read: a phantom
 *   lists a tool that is gone (or an edit that never landed), a missing entry hides a tool. Both
 *   are found and repaired (the pointer written again, or a phantom cleared).
 * - The archive index (`by-archive-sha256`) is only ever a hint: every reference it names is
 *   confirmed by its item before an archive is kept (`IndexQueries.archiveReferenced`), so its
 *   phantoms are harmless and ignored. An item it lacks is found and repaired, so no delete can
 *   take a referenced archive for unreferenced.
 * Each difference is read again before it is reported, so a write in flight on AWS is not taken for damage.
 * `scope` "whole" reads both indexes whole (the doctor, with every tool's partition); "these tools"
 * reads only the entries of the given partitions' tools and archives (the incremental repair and
 * the full pass, a page of tools at a time).
 */
export async function checkIndexes(
  deps: DoctorDeps,
  partitions: ReadonlyMap<string, ToolPartition>,
  fix: boolean,
  scope: "whole" | "these tools" = "whole",
): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  const listedEntries =
    scope === "whole"
      ? await deps.entries.indexes.latestIndexEntries()
      : (await Promise.all([...partitions.keys()].map((toolId) => deps.entries.indexes.latestIndexEntries(toolId)))).flat();
  const listed = new Map(listedEntries.map((entry) => [entry.toolId, entry]));
  const pointed = [...partitions.values()]
    .filter((partition) => partition.pointer?.kind === "pointer")
    .map((partition) => partition.toolId);
  for (const toolId of new Set([...listed.keys(), ...pointed])) {
    if (listingProblem(listed.get(toolId), partitions.get(toolId)) === undefined) continue;
    const [entry] = await deps.entries.indexes.latestIndexEntries(toolId);
    const problem = listingProblem(entry, await deps.entries.reads.readPartition(toolId));
    if (problem === undefined) continue;
    const fixed =
      fix &&
      (problem.kind === "phantom"
        ? await deps.entries.pointer.clearPhantomPointer(toolId)
        : await deps.entries.pointer.rewritePointer(toolId));
    if (fixed) await recordCatalogChange(deps, { toolId, kind: "updated" });
    findings.push({
      kind: problem.kind === "missing" ? "missing-index-entry" : "phantom-index-entry",
      toolId,
      detail: problem.detail,
      fixed,
    });
  }

  const indexedEntries =
    scope === "whole"
      ? await deps.entries.indexes.archiveIndexEntries()
      : (await Promise.all(versionArchives(partitions).map((sha256) => deps.entries.indexes.archiveIndexEntries(sha256)))).flat();
  const indexed = new Set(indexedEntries.map(archiveKey));
  for (const partition of partitions.values()) {
    for (const version of partition.versions) {
      const reference = { toolId: partition.toolId, version: version.version, sha256: version.archiveSha256 };
      if (reference.sha256 === "" || indexed.has(archiveKey(reference))) continue;
      if ((await deps.entries.indexes.archiveIndexEntries(reference.sha256)).some((entry) => archiveKey(entry) === archiveKey(reference)))
        continue;
      findings.push({
        kind: "missing-index-entry",
        toolId: reference.toolId,
        version: reference.version,
        sha256: reference.sha256,
        detail:
          `${reference.toolId}@${reference.version} references archives/${reference.sha256}, but the archive ` +
          `index (${ARCHIVE_INDEX.name}) lacks it, so a delete could take that archive for unreferenced`,
        fixed: fix && (await deps.entries.indexes.rewriteArchiveReference(reference.toolId, reference.version, reference.sha256)),
      });
    }
  }
  return findings;
}

/** How the listing index's entry for a tool differs from the tool's pointer in the table, if it does. */
function listingProblem(
  entry: LatestIndexEntry | undefined,
  partition: ToolPartition | undefined,
): { kind: "phantom" | "stale" | "missing"; detail: string } | undefined {
  const pointer = partition?.pointer?.kind === "pointer" ? partition.pointer : undefined;
  if (entry === undefined) {
    return pointer === undefined
      ? undefined
      : {
          kind: "missing",
          detail:
            `the table's latest pointer names ${pointer.version}, but the listing index ` +
            `(${LATEST_INDEX.name}) has no entry for it, so GET /tools does not list the tool`,
        };
  }
  if (pointer === undefined) {
    return {
      kind: "phantom",
      detail:
        `the listing index (${LATEST_INDEX.name}) lists ${entry.version || "a pointer"}, but the ` +
        `table holds no latest pointer for the tool, so GET /tools lists a tool readers cannot find`,
    };
  }
  if (entry.version === pointer.version && entry.order === pointer.order) return undefined;
  return {
    kind: "stale",
    detail:
      `the listing index (${LATEST_INDEX.name}) lists ${entry.version} (order ${entry.order ?? "none"}), ` +
      `the table's latest pointer names ${pointer.version} (order ${pointer.order ?? "none"})`,
  };
}

/** Every archive the version items of these partitions name, once each. */
function versionArchives(partitions: ReadonlyMap<string, ToolPartition>): string[] {
  const archives = [...partitions.values()].flatMap((partition) => partition.versions.map((version) => version.archiveSha256));
  return [...new Set(archives)].filter((sha256) => sha256 !== "");
}

function archiveKey(entry: ArchiveIndexEntry): string {
  return `${entry.toolId}\0${entry.version}\0${entry.sha256}`;
}
