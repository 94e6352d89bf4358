import { isToolId } from "../validate/tool-id.js";
import type { EntryStore } from "../storage/entry-store.js";
import { highestVersion, latestCandidates, type ToolPartition, type VersionSummary } from "../storage/tool-partition.js";
import type { PublishedEntry } from "../entry/published-entry.js";
import { versionRank } from "../entry/version-rank.js";
import { isStorageFull } from "../storage/storage-errors.js";

export interface ResolvedLatest {
  entry?: PublishedEntry;
  /** The stored pointer was missing or stale and this read fixed it (record a catalog change). */
  repaired: boolean;
}

/** Rounds of read-and-repair before answering from the versions alone (each lost round lost to a concurrent write). */
const MAX_ROUNDS = 4;

/**
 * A tool's latest entry as the versions themselves say: the highest version no delete has
 * claimed and nobody yanked. The pointer is only its listed copy, so a pointer that a crash left
 * missing, stale or dangling is repaired here (docs/storage.md, "Readers repair"): forward by the
 * same forward-only write a publish makes, and back (a yanked or deleted version was latest) by a
 * write conditional on the exact pointer it read, so a concurrent publish that moved the pointer
 * on always wins and the next round re-reads. The pointer and the partition are read in parallel,
 * so a healthy tool costs one round trip. On a full disk (the local server) a read still answers,
 * from the versions, and leaves the repair to a later read.
 */
export async function resolveLatest(entries: Pick<EntryStore, "reads" | "pointer">, toolId: string): Promise<ResolvedLatest> {
  // No tool can have an id outside the rule (routes answer 400 before; other callers get "none").
  if (!isToolId(toolId)) return { repaired: false };
  let repaired = false;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const [partition, pointerEntry] = await Promise.all([entries.reads.readPartition(toolId), entries.reads.getLatest(toolId)]);
    const best = highestVersion(latestCandidates(partition));
    const pointer = partition.pointer;
    if (pointer?.kind === "tombstone") {
      // A delete is under way: it owns the key; show what it does not remove, repair nothing.
      return { ...(best === undefined ? {} : { entry: await entries.reads.getVersion(toolId, best.version) }), repaired };
    }
    if (best === undefined) {
      if (pointer === undefined) return { repaired };
      const moved = await repairWrite(entries.pointer.retreatPointer(toolId, pointer));
      if (moved === undefined) return { repaired };
      repaired = moved || repaired;
      continue;
    }
    if (pointerEntry?.version === best.version && pointerEntry.updated_at === best.updatedAt) return { entry: pointerEntry, repaired };
    const entry = await entries.reads.getVersion(toolId, best.version);
    if (entry === undefined || entry.status === "yanked") continue; // deleted or yanked between the two reads
    if (pointer !== undefined && pointerAhead(pointer.version, best)) {
      const moved = await repairWrite(entries.pointer.retreatPointer(toolId, pointer, entry));
      if (moved === undefined) return { entry, repaired };
      repaired = moved || repaired;
      continue;
    }
    const advanced = await repairWrite(entries.pointer.advancePointer(entry));
    if (advanced === undefined) return { entry, repaired };
    if (advanced) return { entry, repaired: true };
    // Lost to a concurrent write: the next round sees it.
  }
  return { entry: await fromVersions(entries, await entries.reads.readPartition(toolId)), repaired };
}

/** A repair write's answer, or undefined when the disk is full: the read answers without it. */
function repairWrite(write: Promise<boolean>): Promise<boolean | undefined> {
  return write.catch((error: unknown) => {
    if (isStorageFull(error)) return undefined;
    throw error;
  });
}

/**
 * The pointer names a higher version than the best candidate: one that was yanked or deleted (a newer edit of
 * the same version is not "ahead").
 */
function pointerAhead(pointerVersion: string, best: VersionSummary): boolean {
  return pointerVersion !== best.version && versionRank(pointerVersion) > best.rank;
}

async function fromVersions(entries: Pick<EntryStore, "reads">, partition: ToolPartition): Promise<PublishedEntry | undefined> {
  const best = highestVersion(latestCandidates(partition));
  return best === undefined ? undefined : entries.reads.getVersion(partition.toolId, best.version);
}
