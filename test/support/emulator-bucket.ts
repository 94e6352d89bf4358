import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CreateBucketCommand, type S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll } from "vitest";
import { startEmulators, type Emulators } from "../../functions/local/emulators.js";
import { createS3Client } from "../../functions/storage/aws-clients.js";
import { emulatorConfig } from "./emulator-config.js";

export interface EmulatorBucket {
  s3: S3Client;
  emulators: Emulators;
  dataDir: string;
}

/**
 * For the tests of one file: the embedded emulators in a temp folder, an S3 client of them and
 * `bucket` created before the tests; all stopped and removed after. Read the fields inside tests.
 */
export function emulatorBucket(bucket: string): EmulatorBucket {
  const fixture = {} as EmulatorBucket;
  beforeAll(async () => {
    fixture.dataDir = await mkdtemp(join(tmpdir(), `agent-tools-${bucket}-`));
    fixture.emulators = await startEmulators(fixture.dataDir);
    fixture.s3 = createS3Client(emulatorConfig(fixture.emulators, { bucketName: bucket }));
    await fixture.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    fixture.s3?.destroy();
    await fixture.emulators?.close();
    if (fixture.dataDir) await rm(fixture.dataDir, { recursive: true, force: true });
  });
  return fixture;
}
