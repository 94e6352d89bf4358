import type { TokenVerifier } from "./auth/token-verifier.js";
import type { RecordedCatalogChange } from "./catalog/catalog-change.js";
import { ArchiveBytesCache } from "./catalog/archive-bytes-cache.js";
import { CatalogReader } from "./catalog/catalog-reader.js";
import type { RegistryConfig } from "./config.js";
import { ArchiveStore } from "./storage/archive-store.js";
import { createDynamoDocumentClient, createS3Client } from "./storage/aws-clients.js";
import { EntryStore } from "./storage/entry-store.js";

/** Everything the routes and the upload pipeline use; built once per process. */
export interface RegistryDeps {
  config: RegistryConfig;
  entries: EntryStore;
  archives: ArchiveStore;
  /** Archive bytes by sha256, cached in process (content-addressed, so never stale). */
  archiveBytes: ArchiveBytesCache;
  /** Cached reads; writes go to `entries` and then call `onCatalogChange`. */
  reader: CatalogReader;
  verifyToken: TokenVerifier;
  /** Called after every catalog write (publish, update, delete), once it is stored and recorded. */
  onCatalogChange: (change: RecordedCatalogChange) => Promise<void>;
}

export interface RegistryDepsOptions {
  /** Extra work after each catalog write, e.g. refreshing a search index. */
  onCatalogChange?: (change: RecordedCatalogChange) => void | Promise<void>;
}

export function createRegistryDeps(
  config: RegistryConfig,
  verifyToken: TokenVerifier,
  options: RegistryDepsOptions = {},
): RegistryDeps {
  const entries = new EntryStore(createDynamoDocumentClient(config), config.tableName);
  const archives = new ArchiveStore(createS3Client(config), config.bucketName);
  const reader = new CatalogReader(entries, config.cacheRevalidateMs);
  return {
    config,
    entries,
    archives,
    archiveBytes: new ArchiveBytesCache(archives),
    reader,
    verifyToken,
    async onCatalogChange(change) {
      reader.changed(change);
      try {
        await options.onCatalogChange?.(change);
      } catch (error) {
        // The write itself succeeded; a failing listener must not turn it into an error.
        console.error("[registry] catalog-change listener failed:", error);
      }
    },
  };
}
