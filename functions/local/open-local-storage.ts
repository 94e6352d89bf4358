import { join, resolve } from "node:path";
import { DEFAULT_MAX_BUNDLE_BYTES, type RegistryConfig } from "../config.js";
import { isDiskFull } from "../storage/storage-errors.js";
import { loadCursorKey } from "./cursor-key.js";
import { lockDataDir, type DataDirLock } from "./data-dir-lock.js";
import { DiskFullSignal } from "./disk-full-signal.js";
import { DiskSpace } from "./disk-space.js";
import { S3_FOLDER, startEmulators, type EmulatorOptions } from "./emulators.js";
import { repairEmulatorFiles } from "./repair-emulator-files.js";
import { provisionStorage } from "./provision-storage.js";

export interface LocalStorage {
  /** The data folder, resolved. */
  dataDir: string;
  /** Emulator endpoints and credentials; the other fields are defaults the caller may override. */
  config: RegistryConfig;
  /** Room for writes on the data folder's disk (deps pass it to the write routes). */
  space: DiskSpace;
  /** Why this start is read-only (a full disk), when it is: writes answer 507 until space is freed. */
  readOnly?: string;
  /** Stops the emulators and releases the data folder. */
  close(): Promise<void>;
}

/**
 * The embedded store of one data folder, locked for this process: dynalite and s3rver on
 * loopback, table and bucket provisioned; after an unclean stop, s3rver's files that a kill cut
 * short are repaired first. On a full disk it releases the data folder's space reserve to start
 * at all, and starts read-only (`readOnly`; docs/durability.md, "Out of space"). `npm start`
 * (`startLocalRegistry`) and `npm run doctor -- --data-dir` share it.
 */
export async function openLocalStorage(dataDirOption: string, options: EmulatorOptions = {}): Promise<LocalStorage> {
  const dataDir = resolve(dataDirOption);
  const { lock, released } = await lockOnAnyDisk(dataDir);
  try {
    const { space, readOnly } = await DiskSpace.prepare(dataDir, released);
    if (lock.afterUncleanStop) await repairEmulatorFiles(join(dataDir, S3_FOLDER));
    const cursorKey = await loadCursorKey(dataDir);
    const diskFull = new DiskFullSignal();
    const emulators = await startEmulators(dataDir, { ...options, diskFull });
    space.attach(diskFull, () => emulators.reopenTable());
    const close = async () => {
      await emulators.close();
      await lock.release();
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
        // The emulator honours If-None-Match like S3 (s3rver-if-none-match.ts): archives are written in one call.
        s3ConditionalWrites: true,
        // Only the embedded emulators: an external DynamoDB (DynamoDB Local) is signed as ever.
        unsignedEndpoints: emulators.unsignedEndpoints,
        cursorKey,
      };
      await provisionStorage(config);
      return { dataDir, config, space, ...(readOnly === undefined ? {} : { readOnly }), close };
    } catch (error) {
      await emulators.close();
      throw error;
    }
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** The data-folder lock, on a full disk too: its file needs a block, which releasing the space reserve gives. */
async function lockOnAnyDisk(dataDir: string): Promise<{ lock: DataDirLock; released: boolean }> {
  try {
    return { lock: await lockDataDir(dataDir), released: false };
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    await DiskSpace.release(dataDir);
    return { lock: await lockDataDir(dataDir), released: true };
  }
}
