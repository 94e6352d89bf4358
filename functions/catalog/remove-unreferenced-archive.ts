import type { ArchiveStore } from "../storage/archive-store.js";
import type { EntryStore } from "../storage/entry-store.js";

/**
 * Deletes an archive object that no stored version references (after a delete, a refused upload,
 * or as an orphan the doctor found). A publish of the same bytes may claim the object between the
 * check and the delete, so the bytes are read first and put back when a reference appeared
 * meanwhile; a publish that claims it even later re-checks the object itself (docs/storage.md,
 * "Archives"). Returns whether the object was removed.
 */
export async function removeArchiveIfUnreferenced(
  stores: { entries: Pick<EntryStore, "indexes">; archives: ArchiveStore },
  sha256: string,
): Promise<boolean> {
  if (await stores.entries.indexes.archiveReferenced(sha256)) return false;
  const bytes = await stores.archives.get(sha256);
  await stores.archives.delete(sha256);
  if (bytes !== undefined && (await stores.entries.indexes.archiveReferenced(sha256))) {
    await stores.archives.putOnce(sha256, bytes);
    return false;
  }
  return true;
}
