import type { ArchiveStore } from "../storage/archive-store.js";
import type { EntryStore } from "../storage/entry-store.js";

/** Deletes an archive object that no published version references (after a failed publish or a delete). */
export async function removeArchiveIfUnreferenced(
  stores: { entries: EntryStore; archives: ArchiveStore },
  sha256: string,
): Promise<void> {
  if (!(await stores.entries.archiveReferenced(sha256))) await stores.archives.delete(sha256);
}
