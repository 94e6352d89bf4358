import { join } from "node:path";
import { DiskFullSignal } from "./disk-full-signal.js";
import { startHostedEmulator } from "./emulator-host.js";

/**
 * DynamoDB (dynalite, LevelDB on disk) and S3 (s3rver, files on disk, honouring `If-None-Match: *`),
 * both loopback-only, each kind in a worker thread of its own (emulator-host.ts), both answering a
 * full disk as 507 instead of failing the process.
 */
export interface Emulators {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  /** s3rver checks that a request's key id is its own (never the signature itself). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The endpoints of the emulators started here, which never check signatures (`RegistryConfig.unsignedEndpoints`). */
  unsignedEndpoints: string[];
  /**
   * Opens dynalite's LevelDB again: after a write failed for want of space, LevelDB may keep
   * failing writes until it is reopened, even once space is back. Nothing with an external DynamoDB.
   */
  reopenTable(): Promise<void>;
  close(): Promise<void>;
}

export interface EmulatorOptions {
  /**
   * Use this DynamoDB instead of starting dynalite: one that accepts the emulator credentials
   * (DynamoDB Local does), e.g. for the conformance suite (docs/durability.md).
   */
  dynamodbEndpoint?: string;
  /** Raised each time an emulator's write failed because the disk is full. */
  diskFull?: DiskFullSignal;
}

/** Where s3rver keeps its files, under the data folder. */
export const S3_FOLDER = "s3";

export async function startEmulators(dataDir: string, options: EmulatorOptions = {}): Promise<Emulators> {
  const diskFull = options.diskFull ?? new DiskFullSignal();
  const [dynamo, s3] = await Promise.allSettled([
    options.dynamodbEndpoint === undefined ? startHostedEmulator("dynalite", join(dataDir, "dynamodb"), diskFull) : undefined,
    startHostedEmulator("s3rver", join(dataDir, S3_FOLDER), diskFull),
  ]);
  if (dynamo.status === "rejected" || s3.status === "rejected") {
    await Promise.allSettled([dynamo.status === "fulfilled" && dynamo.value?.close(), s3.status === "fulfilled" && s3.value.close()]);
    throw dynamo.status === "rejected" ? dynamo.reason : (s3 as PromiseRejectedResult).reason;
  }
  return {
    dynamodbEndpoint: options.dynamodbEndpoint ?? dynamo.value!.endpoint,
    s3Endpoint: s3.value.endpoint,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    unsignedEndpoints: [s3.value.endpoint, ...(dynamo.value === undefined ? [] : [dynamo.value.endpoint])],
    reopenTable: async () => dynamo.value?.reopen(),
    async close() {
      await Promise.allSettled([s3.value.close(), dynamo.value?.close()]);
    },
  };
}
