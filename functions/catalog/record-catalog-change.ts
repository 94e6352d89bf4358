import type { EntryStore } from "../storage/entry-store.js";
import type { CatalogChange, RecordedCatalogChange } from "../entry/catalog-change.js";

/** The parts of `RegistryDeps` a write needs to record what it changed. */
export interface ChangeRecordingDeps {
  entries: EntryStore;
  onCatalogChange?: (change: RecordedCatalogChange) => Promise<void>;
}

/**
 * The last step of every catalog write, once the entries are stored: bump the revision with a log
 * of the tool (other processes catch up from it), then tell this process (`onCatalogChange`).
 * `alongside` runs once the bump is stored, beside the log write (a publish marks itself done).
 */
export async function recordCatalogChange(
  deps: ChangeRecordingDeps,
  change: CatalogChange,
  alongside?: () => Promise<void>,
): Promise<void> {
  const revision = await deps.entries.revision.recordChange(change, alongside);
  await deps.onCatalogChange?.({ ...change, revision });
}
