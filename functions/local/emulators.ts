import { mkdir } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import dynalite from "dynalite";
import S3rver from "s3rver";
import { honourIfNoneMatch } from "./s3rver-if-none-match.js";

/** DynamoDB (dynalite, LevelDB on disk) and S3 (s3rver, files on disk, honouring `If-None-Match: *`), both loopback-only. */
export interface Emulators {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  /** s3rver checks request signatures against its fixed key pair. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

export interface EmulatorOptions {
  /**
   * Use this DynamoDB instead of starting dynalite: one that accepts the emulator credentials
   * (DynamoDB Local does), e.g. for the conformance suite (docs/durability.md).
   */
  dynamodbEndpoint?: string;
}

/** Where s3rver keeps its files, under the data folder. */
export const S3_FOLDER = "s3";

export async function startEmulators(dataDir: string, options: EmulatorOptions = {}): Promise<Emulators> {
  const s3Dir = join(dataDir, S3_FOLDER);
  await mkdir(s3Dir, { recursive: true });
  const dynamo = options.dynamodbEndpoint === undefined ? await startDynalite(join(dataDir, "dynamodb")) : undefined;

  const s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: s3Dir, silent: true });
  honourIfNoneMatch(s3);
  let s3Address: AddressInfo;
  try {
    s3Address = await s3.run();
  } catch (error) {
    if (dynamo) await closeServer(dynamo);
    throw error;
  }

  return {
    dynamodbEndpoint: options.dynamodbEndpoint ?? `http://127.0.0.1:${(dynamo!.address() as AddressInfo).port}`,
    s3Endpoint: `http://127.0.0.1:${s3Address.port}`,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    async close() {
      await Promise.allSettled([s3.close(), dynamo && closeServer(dynamo)]);
    },
  };
}

async function startDynalite(dir: string): Promise<Server> {
  await mkdir(dir, { recursive: true });
  const dynamo = dynalite({ path: dir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    dynamo.once("error", reject);
    dynamo.listen(0, "127.0.0.1", () => resolve());
  });
  return dynamo;
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
