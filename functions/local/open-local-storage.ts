import { resolve } from "node:path";
import { DEFAULT_MAX_BUNDLE_BYTES, type RegistryConfig } from "../config.js";
import { lockDataDir } from "./data-dir-lock.js";
import { startEmulators, type EmulatorOptions } from "./emulators.js";
import { provisionStorage } from "./provision-storage.js";

export interface LocalStorage {
  /** The data folder, resolved. */
  dataDir: string;
  /** Emulator endpoints and credentials; the other fields are defaults the caller may override. */
  config: RegistryConfig;
  /** Stops the emulators and releases the data folder. */
  close(): Promise<void>;
}

/**
 * The embedded store of one data folder, locked for this process: dynalite and s3rver on
 * loopback, table and bucket provisioned. `npm start` (`startLocalRegistry`) and
 * `npm run doctor -- --data-dir` share it.
 */
export async function openLocalStorage(dataDirOption: string, options: EmulatorOptions = {}): Promise<LocalStorage> {
  const dataDir = resolve(dataDirOption);
  const unlock = await lockDataDir(dataDir);
  try {
    const emulators = await startEmulators(dataDir, options);
    const close = async () => {
      await emulators.close();
      await unlock();
    };
    try {
      const config: RegistryConfig = {
        region: "us-east-1",
        tableName: "agent-tools",
        bucketName: "agent-tools-archives",
        s3Endpoint: emulators.s3Endpoint,
        dynamodbEndpoint: emulators.dynamodbEndpoint,
        credentials: emulators.credentials,
        archiveDelivery: "proxy",
        presignExpiresSeconds: 300,
        maxBundleBytes: DEFAULT_MAX_BUNDLE_BYTES,
        cacheRevalidateMs: 1000,
      };
      await provisionStorage(config);
      return { dataDir, config, close };
    } catch (error) {
      await emulators.close();
      throw error;
    }
  } catch (error) {
    await unlock();
    throw error;
  }
}
