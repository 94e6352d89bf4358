import type { RegistryConfig } from "../../functions/config.js";
import type { Emulators } from "../../functions/local/emulators.js";

/**
 * The storage config of clients of `emulators`, as the local server makes it (both endpoints, their
 * credentials, unsigned), with `overrides` on top: for tests that talk to the emulators directly.
 */
export function emulatorConfig(emulators: Emulators, overrides: Partial<RegistryConfig> = {}): RegistryConfig {
  return {
    region: "us-east-1",
    tableName: "unused",
    bucketName: "unused",
    s3Endpoint: emulators.s3Endpoint,
    dynamodbEndpoint: emulators.dynamodbEndpoint,
    credentials: emulators.credentials,
    unsignedEndpoints: emulators.unsignedEndpoints,
    archiveDelivery: "proxy",
    presignExpiresSeconds: 60,
    maxBundleBytes: 1024,
    cacheRevalidateMs: 0,
    ...overrides,
  };
}
