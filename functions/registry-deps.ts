import type { TokenVerifier } from "./auth/token-verifier.js";
import { ArchiveBytesCache } from "./catalog/archive-bytes-cache.js";
import { createCatalogDeps, type CatalogDeps, type CatalogDepsOptions } from "./catalog-deps.js";
import type { RegistryConfig } from "./config.js";
import { ArchiveStore } from "./storage/archive-store.js";
import { createS3Client } from "./storage/aws-clients.js";

/** Everything the routes and the upload pipeline use; built once per process. */
export interface RegistryDeps extends CatalogDeps {
  archives: ArchiveStore;
  /** Archive bytes by sha256, cached in process (content-addressed, so never stale). */
  archiveBytes: ArchiveBytesCache;
}

export type RegistryDepsOptions = CatalogDepsOptions;

export function createRegistryDeps(config: RegistryConfig, verifyToken: TokenVerifier, options: RegistryDepsOptions = {}): RegistryDeps {
  const archives = new ArchiveStore(createS3Client(config), config.bucketName, { conditionalWrites: config.s3ConditionalWrites });
  return { ...createCatalogDeps(config, verifyToken, options), archives, archiveBytes: new ArchiveBytesCache(archives) };
}
