import { versionRank } from "../entry/version-rank.js";
import { furtherArchives, type PublishedEntry, type VersionStatus } from "../entry/published-entry.js";
import { DELETING_STATE, INDEX_REPAIR_ATTRIBUTE, LATEST_SORT_KEY, PENDING_STATE } from "./table-schema.js";

/** One version item, without its entry (what state decisions need). */
export interface VersionSummary {
  version: string;
  rank: string;
  /** Stored, but its publish has not finished yet (or was cut short). */
  pending: boolean;
  updatedAt: string;
  archiveSha256: string;
  /** `tool_archive_size` of the entry. */
  archiveSize: number;
  /** The version's archives besides `tool.zip` (further platforms', `furtherArchives`), with their sizes. */
  furtherArchives: { sha256: string; size: number }[];
  /** Listed by a tombstone: a delete has started to remove it. */
  doomed: boolean;
  /** A delete of this one version has started (`state: "deleting"`). */
  deleting: boolean;
  /** `entry.status`; entries stored before statuses are active. */
  status: VersionStatus;
}

export type PointerSummary =
  /** `order`: its `latest_order`, absent on pointers written before it existed. */
  { kind: "pointer"; version: string; updatedAt: string; order?: string } | { kind: "tombstone"; deleting: string[]; deletionId: string };

/** Everything stored under one tool id, summarised from one Query of its partition. */
export interface ToolPartition {
  toolId: string;
  pointer?: PointerSummary;
  /** Every version item, doomed ones included; use `visibleVersions` for what readers see. */
  versions: VersionSummary[];
}

/** The attributes a partition summary reads (entries stay behind: they can be 300 KB each). */
export const PARTITION_PROJECTION = {
  expression:
    "#version, #rank, #state, #sha, #entry.#updated, #entry.#size, #entry.#status, " +
    "#entry.#platforms, #latest, #order, #deleting, #deletion, #repair",
  names: {
    "#version": "version",
    "#rank": "version_rank",
    "#state": "state",
    "#sha": "tool_archive_sha256",
    "#entry": "entry",
    "#updated": "updated_at",
    "#size": "tool_archive_size",
    "#status": "status",
    "#platforms": "tool_platform_archives",
    "#order": "latest_order",
    "#latest": "latest_version",
    "#deleting": "deleting",
    "#deletion": "deletion_id",
    "#repair": INDEX_REPAIR_ATTRIBUTE,
  },
} as const;

export function summarisePartition(toolId: string, items: Record<string, unknown>[]): ToolPartition {
  // The doctor's index-repair placeholder is no pointer (see INDEX_REPAIR_ATTRIBUTE).
  const pointerItem = items.find((item) => item.version === LATEST_SORT_KEY && item[INDEX_REPAIR_ATTRIBUTE] === undefined);
  const pointer = pointerItem === undefined ? undefined : summarisePointer(pointerItem);
  const doomed = new Set(pointer?.kind === "tombstone" ? pointer.deleting : []);
  const versions = items
    .filter((item) => item.version !== LATEST_SORT_KEY)
    .map((item) => {
      const version = String(item.version);
      return {
        version,
        rank: typeof item.version_rank === "string" ? item.version_rank : versionRank(version),
        pending: item.state === PENDING_STATE,
        updatedAt: String((item.entry as { updated_at?: unknown } | undefined)?.updated_at ?? ""),
        archiveSha256: String(item.tool_archive_sha256 ?? ""),
        archiveSize: Number((item.entry as { tool_archive_size?: unknown } | undefined)?.tool_archive_size ?? 0),
        furtherArchives: furtherArchivesOf(item),
        doomed: doomed.has(version),
        deleting: item.state === DELETING_STATE,
        status: statusOf(item.entry),
      };
    });
  return { toolId, ...(pointer === undefined ? {} : { pointer }), versions };
}

function summarisePointer(item: Record<string, unknown>): PointerSummary {
  if (Array.isArray(item.deleting)) {
    return { kind: "tombstone", deleting: item.deleting.map(String), deletionId: String(item.deletion_id ?? "") };
  }
  return {
    kind: "pointer",
    version: String(item.latest_version ?? ""),
    updatedAt: String((item.entry as { updated_at?: unknown } | undefined)?.updated_at ?? ""),
    ...(typeof item.latest_order === "string" ? { order: item.latest_order } : {}),
  };
}

function furtherArchivesOf(item: Record<string, unknown>): { sha256: string; size: number }[] {
  const archives = (item.entry as Pick<PublishedEntry, "tool_platform_archives"> | undefined)?.tool_platform_archives ?? [];
  const further = new Set(
    furtherArchives({ tool_archive_sha256: String(item.tool_archive_sha256 ?? ""), tool_platform_archives: archives }),
  );
  return archives.filter((archive) => further.delete(archive.sha256)).map(({ sha256, size }) => ({ sha256, size }));
}

function statusOf(entry: unknown): VersionStatus {
  const status = (entry as { status?: unknown } | undefined)?.status;
  return status === "deprecated" || status === "yanked" ? status : "active";
}

/** The versions readers see: every version item no delete (of the tool, or of that version) has claimed. */
export function visibleVersions(partition: ToolPartition): VersionSummary[] {
  return partition.versions.filter((version) => !version.doomed && !version.deleting);
}

/** The versions "latest" may name: visible and not yanked (docs/design/publisher-trust.md). */
export function latestCandidates(partition: ToolPartition): VersionSummary[] {
  return visibleVersions(partition).filter((version) => version.status !== "yanked");
}

/** The highest-ranked of `versions` (the one the latest pointer must name). */
export function highestVersion(versions: readonly VersionSummary[]): VersionSummary | undefined {
  let best: VersionSummary | undefined;
  for (const version of versions) if (best === undefined || version.rank > best.rank) best = version;
  return best;
}

/** Whether the pointer names exactly `version` as last edited (nothing to repair). */
export function pointerMatches(partition: ToolPartition, version: VersionSummary): boolean {
  const pointer = partition.pointer;
  return pointer?.kind === "pointer" && pointer.version === version.version && pointer.updatedAt === version.updatedAt;
}
