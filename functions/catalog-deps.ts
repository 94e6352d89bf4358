import type { TokenVerifier } from "./auth/token-verifier.js";
import type { RecordedCatalogChange } from "./entry/catalog-change.js";
import { CatalogReader } from "./catalog/catalog-reader.js";
import { recordCatalogChange } from "./catalog/record-catalog-change.js";
import type { RegistryConfig } from "./config.js";
import type { Embedder } from "./search/embedder.js";
import { embedderFromEnv } from "./search/embedding-config.js";
import { createDynamoDocumentClient, createS3Client } from "./storage/aws-clients.js";
import { EntryStore } from "./storage/entry-store.js";
import { IndexSnapshotStore } from "./storage/index-snapshot-store.js";

/**
 * What routes that only read and write entries use: no archive store, so a Lambda serving only
 * such routes (search) bundles no S3 code beyond reading snapshots. `RegistryDeps` adds the archives.
 */
export interface CatalogDeps {
  config: RegistryConfig;
  entries: EntryStore;
  /** Cached reads; writes go to `entries` and then call `onCatalogChange`. */
  reader: CatalogReader;
  verifyToken: TokenVerifier;
  /** Called after every catalog write (publish, update, delete), once it is stored and recorded. */
  onCatalogChange: (change: RecordedCatalogChange) => Promise<void>;
  /** Embeds tools when they are published or edited and queries when they are searched (hybrid search); absent: lexical only. */
  embedder?: Embedder;
}

export interface CatalogDepsOptions {
  /** Extra work after each catalog write, e.g. refreshing a search index. */
  onCatalogChange?: (change: RecordedCatalogChange) => void | Promise<void>;
  /** The hybrid search's embedder; by default the one `SEARCH_EMBEDDINGS` configures (embedding-config.ts), usually none. */
  embedder?: Embedder;
}

export function createCatalogDeps(config: RegistryConfig, verifyToken: TokenVerifier, options: CatalogDepsOptions = {}): CatalogDeps {
  const entries = new EntryStore(createDynamoDocumentClient(config), config.tableName);
  // A read that repairs a missing or stale pointer records it like any write, so other processes catch up.
  const reader: CatalogReader = new CatalogReader(entries, config.cacheRevalidateMs, {
    onRepair: (toolId) => recordCatalogChange(deps, { toolId, kind: "updated" }),
    listings: new IndexSnapshotStore(createS3Client(config), config.bucketName, "listing"),
  });
  const deps: CatalogDeps = {
    config,
    entries,
    reader,
    verifyToken,
    embedder: options.embedder ?? embedderFromEnv(),
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
  return deps;
}
