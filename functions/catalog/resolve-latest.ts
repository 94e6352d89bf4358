import { isToolId } from "../validate/tool-id.js";
import type { EntryStore } from "../storage/entry-store.js";
import { highestVersion, visibleVersions } from "../storage/tool-partition.js";
import type { PublishedEntry } from "../entry/published-entry.js";

export interface ResolvedLatest {
  entry?: PublishedEntry;
  /** The stored pointer was missing or stale and this read fixed it (record a catalog change). */
  repaired: boolean;
}

/**
 * A tool's latest entry as the versions themselves say: the highest version no delete has
 * claimed. The pointer is only its listed copy, so a pointer that a crash left missing, stale or
 * dangling is repaired here by the same forward-only write a publish makes (docs/storage.md,
 * "Readers repair"). The pointer and the partition are read in parallel, so a healthy tool costs
 * one round trip.
 */
export async function resolveLatest(entries: EntryStore, toolId: string): Promise<ResolvedLatest> {
  // No tool can have an id outside the rule (routes answer 400 before; other callers get "none").
  if (!isToolId(toolId)) return { repaired: false };
  const [partition, pointerEntry] = await Promise.all([entries.readPartition(toolId), entries.getLatest(toolId)]);
  const best = highestVersion(visibleVersions(partition));
  if (partition.pointer?.kind === "tombstone") {
    // A delete is under way: it owns the key; show what it does not remove, repair nothing.
    return { ...(best === undefined ? {} : { entry: await entries.getVersion(toolId, best.version) }), repaired: false };
  }
  if (best === undefined) {
    const dangling = partition.pointer?.kind === "pointer" ? partition.pointer.version : undefined;
    return { repaired: dangling !== undefined && (await entries.removePointer(toolId, dangling)) };
  }
  if (pointerEntry?.version === best.version && pointerEntry.updated_at === best.updatedAt) {
    return { entry: pointerEntry, repaired: false };
  }
  const entry = await entries.getVersion(toolId, best.version);
  if (entry === undefined) return { repaired: false }; // deleted between the two reads
  return { entry, repaired: await entries.advancePointer(entry) };
}
