import { versionRank } from "../entry/version-rank.js";
import { LATEST_SORT_KEY, PENDING_STATE } from "./table-schema.js";

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
  /** Listed by a tombstone: a delete has started to remove it. */
  doomed: boolean;
}

export type PointerSummary =
  | { kind: "pointer"; version: string; updatedAt: string }
  | { kind: "tombstone"; deleting: string[]; deletionId: string };

/** Everything stored under one tool id, summarised from one Query of its partition. */
export interface ToolPartition {
  toolId: string;
  pointer?: PointerSummary;
  /** Every version item, doomed ones included; use `visibleVersions` for what readers see. */
  versions: VersionSummary[];
}

/** The attributes a partition summary reads (entries stay behind: they can be 300 KB each). */
export const PARTITION_PROJECTION = {
  expression: "#version, #rank, #state, #sha, #entry.#updated, #entry.#size, #latest, #deleting, #deletion",
  names: {
    "#version": "version",
    "#rank": "version_rank",
    "#state": "state",
    "#sha": "tool_archive_sha256",
    "#entry": "entry",
    "#updated": "updated_at",
    "#size": "tool_archive_size",
    "#latest": "latest_version",
    "#deleting": "deleting",
    "#deletion": "deletion_id",
  },
} as const;

export function summarisePartition(toolId: string, items: Record<string, unknown>[]): ToolPartition {
  const pointerItem = items.find((item) => item.version === LATEST_SORT_KEY);
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
        doomed: doomed.has(version),
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
  };
}

/** The versions readers see: every version item no delete has claimed. */
export function visibleVersions(partition: ToolPartition): VersionSummary[] {
  return partition.versions.filter((version) => !version.doomed);
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
