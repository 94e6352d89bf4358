import { mkdir } from "node:fs/promises";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import dynalite from "dynalite";
import S3rver from "s3rver";

/** DynamoDB (dynalite, LevelDB on disk) and S3 (s3rver, files on disk), both loopback-only. */
export interface Emulators {
  dynamodbEndpoint: string;
  s3Endpoint: string;
  /** s3rver checks request signatures against its fixed key pair. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

export async function startEmulators(dataDir: string): Promise<Emulators> {
  const dynamoDir = join(dataDir, "dynamodb");
  const s3Dir = join(dataDir, "s3");
  await mkdir(dynamoDir, { recursive: true });
  await mkdir(s3Dir, { recursive: true });

  const dynamo = dynalite({ path: dynamoDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    dynamo.once("error", reject);
    dynamo.listen(0, "127.0.0.1", () => resolve());
  });
  const dynamoPort = (dynamo.address() as AddressInfo).port;

  const s3 = new S3rver({ address: "127.0.0.1", port: 0, directory: s3Dir, silent: true });
  let s3Address: AddressInfo;
  try {
    s3Address = await s3.run();
  } catch (error) {
    await closeServer(dynamo);
    throw error;
  }

  return {
    dynamodbEndpoint: `http://127.0.0.1:${dynamoPort}`,
    s3Endpoint: `http://127.0.0.1:${s3Address.port}`,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    async close() {
      await Promise.allSettled([s3.close(), closeServer(dynamo)]);
    },
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
