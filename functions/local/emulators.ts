import { mkdir } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import S3rver from "s3rver";
import { guardedDynalite, type GuardedDynalite } from "./dynalite-disk-errors.js";
import { guardS3rverWrites } from "./s3rver-disk-errors.js";
import { honourIfNoneMatch } from "./s3rver-if-none-match.js";

/**
 * DynamoDB (dynalite, LevelDB on disk) and S3 (s3rver, files on disk, honouring `If-None-Match: *`),
 * both loopback-only, both answering a full disk as 507 instead of failing the process.
 */
export interface Emulators {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  /** s3rver checks request signatures against its fixed key pair. */
  credentials: { accessKeyId: string; secretAccessKey: string };
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
  /** Told each time an emulator's write failed because the disk is full. */
  onDiskFull?: () => void;
}

/** Where s3rver keeps its files, under the data folder. */
export const S3_FOLDER = "s3";

export async function startEmulators(dataDir: string, options: EmulatorOptions = {}): Promise<Emulators> {
  const s3Dir = join(dataDir, S3_FOLDER);
  await mkdir(s3Dir, { recursive: true });
  const onDiskFull = options.onDiskFull ?? (() => undefined);
  const dynamo = options.dynamodbEndpoint === undefined ? await startDynalite(join(dataDir, "dynamodb"), onDiskFull) : undefined;

  const s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: s3Dir, silent: true });
  guardS3rverWrites(s3, onDiskFull);
  honourIfNoneMatch(s3);
  let s3Address: AddressInfo;
  try {
    s3Address = await s3.run();
  } catch (error) {
    if (dynamo) await closeServer(dynamo.server);
    throw error;
  }

  return {
    dynamodbEndpoint: options.dynamodbEndpoint ?? `http://127.0.0.1:${(dynamo!.server.address() as AddressInfo).port}`,
    s3Endpoint: `http://127.0.0.1:${s3Address.port}`,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    reopenTable: async () => dynamo?.reopen(),
    async close() {
      await Promise.allSettled([s3.close(), dynamo && closeServer(dynamo.server)]);
    },
  };
}

async function startDynalite(dir: string, onDiskFull: () => void): Promise<GuardedDynalite> {
  await mkdir(dir, { recursive: true });
  const dynamo = guardedDynalite({ path: dir }, onDiskFull);
  try {
    await dynamo.opened;
  } catch (error) {
    await closeServer(dynamo.server).catch(() => undefined);
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new Error(`the DynamoDB emulator's database in ${dir} cannot be opened: ${cause}`, { cause: error });
  }
  await new Promise<void>((resolve, reject) => {
    dynamo.server.once("error", reject);
    dynamo.server.listen(0, "127.0.0.1", () => resolve());
  });
  return dynamo;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
