import type { TokenVerifier } from "./auth/token-verifier.js";
import { ArchiveBytesCache } from "./catalog/archive-bytes-cache.js";
import { createCatalogDeps, type CatalogDeps, type CatalogDepsOptions } from "./catalog-deps.js";
import type { RegistryConfig } from "./config.js";
import { ArchiveStore } from "./storage/archive-store.js";
import { createS3Client } from "./storage/aws-clients.js";
import { IncomingUploadStore } from "./storage/incoming-upload-store.js";
import { deployedSdkPackage, type SdkPackageSource } from "./sdk-package/sdk-package.js";
import { SdkPackageStore } from "./storage/sdk-package-store.js";
import type { StorageSpace } from "./storage/storage-space.js";
import { createTrustStores, type TrustStores } from "./trust/trust-stores.js";

/** Everything the routes and the upload pipeline use; built once per process. */
export interface RegistryDeps extends CatalogDeps {
  archives: ArchiveStore;
  /** Archive bytes by sha256, cached in process (content-addressed, so never stale). */
  archiveBytes: ArchiveBytesCache;
  /** Large bundles waiting under `uploads/` until `POST /tools/uploads/{id}/complete` publishes them. */
  incomingUploads: IncomingUploadStore;
  /** Publisher tokens, id owners, signing keys and the audit log (docs/design/publisher-trust.md). */
  trust: TrustStores;
  /** Room for writes where storage is a local disk (`npm start`); absent on AWS. Checked before every write. */
  space?: StorageSpace;
  /** The SDK tarballs under `sdk/` that `GET /sdk/<file>` serves. */
  sdkPackages: SdkPackageStore;
  /** The SDK package this registry serves and its snippets install (absent: none, and the pages say so). */
  sdkPackage?: SdkPackageSource;
}

export interface RegistryDepsOptions extends CatalogDepsOptions {
  space?: StorageSpace;
  /** Where the SDK package comes from; by default the one the stack deployed (`SDK_PACKAGE`), if any. */
  sdkPackage?: (store: SdkPackageStore) => SdkPackageSource;
}

export function createRegistryDeps(config: RegistryConfig, verifyToken: TokenVerifier, options: RegistryDepsOptions = {}): RegistryDeps {
  const s3 = createS3Client(config);
  const archives = new ArchiveStore(s3, config.bucketName, { conditionalWrites: config.s3ConditionalWrites });
  const sdkPackages = new SdkPackageStore(s3, config.bucketName);
  const sdkPackage =
    options.sdkPackage?.(sdkPackages) ?? (config.sdkPackage === undefined ? undefined : deployedSdkPackage(config.sdkPackage));
  return {
    ...createCatalogDeps(config, verifyToken, options),
    archives,
    archiveBytes: new ArchiveBytesCache(archives),
    incomingUploads: new IncomingUploadStore(s3, config.bucketName),
    trust: createTrustStores(config),
    ...(options.space === undefined ? {} : { space: options.space }),
    sdkPackages,
    ...(sdkPackage === undefined ? {} : { sdkPackage }),
  };
}
