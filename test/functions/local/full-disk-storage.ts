// Scenario run by full-disk.test.ts inside a small tmpfs (`node --import tsx full-disk-storage.ts <data dir>`):
// the embedded store of a data folder, written to straight through the AWS SDK as the disk fills,
// past the registry's own free-space check. Prints one JSON line with what each step met.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { GetObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { openLocalStorage } from "../../../functions/local/open-local-storage.js";
import { PARTIAL_FILE } from "../../../functions/local/s3rver-disk-errors.js";
import { createDynamoDocumentClient, createS3Client } from "../../../functions/storage/aws-clients.js";

const dataDir = process.argv[2]!;
const filler = join(dirname(dataDir), "filler");
const storage = await openLocalStorage(dataDir);
const { config } = storage;
const s3 = createS3Client({ ...config, storageMaxAttempts: 1 });
const db = createDynamoDocumentClient({ ...config, storageMaxAttempts: 1 });

const freeBytes = () => {
  const stats = statfsSync(dataDir);
  return stats.bavail * stats.bsize;
};
function fill(leave: number): void {
  const descriptor = openSync(filler, "a");
  const chunk = Buffer.alloc(1024 * 1024);
  try {
    for (let room = freeBytes() - leave; room > 0; room = freeBytes() - leave)
      writeSync(descriptor, chunk, 0, Math.min(chunk.length, room));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(descriptor);
  }
}
/** What a storage call met: "ok", or its error's name and status. */
async function attempt(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return "ok";
  } catch (error) {
    const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return `${failure.name} ${failure.$metadata?.httpStatusCode}`;
  }
}
const putArchive = (key: string, bytes: number) =>
  attempt(() => s3.send(new PutObjectCommand({ Bucket: config.bucketName, Key: `archives/${key}`, Body: randomBytes(bytes) })));
const putItem = (id: string, bytes: number) =>
  attempt(() =>
    db.send(
      new PutCommand({ TableName: config.tableName, Item: { tool_id: id, version: "1.0.0", blob: randomBytes(bytes).toString("base64") } }),
    ),
  );
const objectFiles = () => readdirSync(join(dataDir, "s3", config.bucketName, "archives"));

const report: Record<string, unknown> = {};
report.before = [await putArchive("kept", 100_000), await putItem("kept", 1_000)];

// At 0 bytes free every write fails, and is answered.
fill(0);
report.full = { archive: await putArchive("refused", 1024 * 1024), item: await putItem("refused", 100_000), free: freeBytes() };
report.readsWhileFull = [
  await attempt(async () => {
    const body = (await s3.send(new GetObjectCommand({ Bucket: config.bucketName, Key: "archives/kept" }))).Body;
    if ((await body!.transformToByteArray()).byteLength !== 100_000) throw new Error("short read");
  }),
  await attempt(async () => {
    if ((await db.send(new GetCommand({ TableName: config.tableName, Key: { tool_id: "kept", version: "1.0.0" } }))).Item === undefined)
      throw new Error("item gone");
  }),
];
report.leftBehind = objectFiles().filter((name) => name.startsWith("refused") || PARTIAL_FILE.test(name));
rmSync(filler);
report.afterFree = [await putArchive("later", 100_000), await putItem("later", 1_000)];

// A few MiB free: writes go through until LevelDB flushes its memtable into a table that does not
// fit, after which it fails every write, even once space is back, until it is reopened.
fill(6 * 1024 * 1024);
let flushFailed = "";
for (let index = 0; index < 400 && flushFailed === ""; index++) {
  const answer = await putItem(`filler-${index}`, 50_000);
  if (answer !== "ok") flushFailed = answer;
}
report.flushFailed = flushFailed;
rmSync(filler);
report.stuckAfterFree = await putItem("stuck", 1_000);
// What the next write request does before it writes: the space check, which reopens LevelDB.
await storage.space.assertRoomFor(0);
report.afterSpaceCheck = await putItem("unstuck", 1_000);

s3.destroy();
db.destroy();
await storage.close();
process.stdout.write(`${JSON.stringify(report)}\n`);
