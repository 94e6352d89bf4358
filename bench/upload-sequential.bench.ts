/**
 * One upload at a time, against its floor: a bare S3 PutObject of the same tool.zip followed by a
 * DynamoDB PutItem of an entry-sized item, through the SDK, on the same emulators, in the same run.
 * The registry runs in a child process (as `npm start` would); the two kinds of sample alternate in
 * short rounds, so load from elsewhere (bursts of seconds on a shared machine) skews both alike,
 * while the work an upload leaves behind (garbage, LevelDB compaction) still lands mostly on the
 * uploads that follow it. Aim: an upload within 3× the bare pair.
 *
 *   npx tsx bench/upload-sequential.bench.ts      (or: npm run bench upload-sequential)
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { createDynamoDocumentClient, createS3Client } from "../functions/storage/aws-clients.js";
import { buildBundle, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../test/support/bundles.js";
import { type ServerReady, withLocalRegistry } from "./child-server.js";
import { p50p99 } from "./percentiles.js";

const ROUNDS = 30;
const PER_ROUND = 10;
const WARM_UP = 20;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

await withLocalRegistry(import.meta.url, run);

async function run({ url, token, config }: ServerReady): Promise<void> {
  const spec = readFixtureSpec("text-stats");
  const functionPy = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py"));
  const toolMd = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8");
  const total = WARM_UP + ROUNDS * PER_ROUND;
  // A new tool with its own code bytes each time: every upload stores a new archive.
  const bodies = Array.from({ length: total }, (_, i) => {
    const toolZip = zipFiles({ "code/function.py": functionPy, "code/build.txt": String(i) });
    return { toolZip, form: buildBundle({ spec: { ...spec, tool_id: `seq-${i}` }, toolZip, toolMd }) };
  });
  const db = createDynamoDocumentClient(config);
  const s3 = createS3Client(config);
  const entryItem = { ...spec, tool_man_page_doc: toolMd };

  let next = 0;
  const upload = async () => {
    const { form: bundle } = bodies[next++]!;
    const form = new FormData();
    form.set("file", new Blob([bundle as Uint8Array<ArrayBuffer>]), "bundle.zip");
    const response = await fetch(`${url}/tools/upload`, { method: "POST", body: form, headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  };
  let pair = 0;
  const barePair = async () => {
    const { toolZip } = bodies[pair % bodies.length]!;
    await s3.send(
      new PutObjectCommand({ Bucket: config.bucketName, Key: `bench/${pair}`, Body: toolZip, ContentLength: toolZip.byteLength }),
    );
    await db.send(
      new PutCommand({ TableName: config.tableName, Item: { tool_id: `bench-pair-${pair}`, version: "1.0.0", entry: entryItem } }),
    );
    pair++;
  };

  for (let i = 0; i < WARM_UP; i++) {
    await upload();
    await barePair();
  }
  const uploads: number[] = [];
  const pairs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < PER_ROUND; i++) uploads.push(await timed(upload));
    for (let i = 0; i < PER_ROUND; i++) pairs.push(await timed(barePair));
  }
  db.destroy();
  s3.destroy();

  const up = p50p99(uploads);
  const bare = p50p99(pairs);
  console.log(
    `Sequential uploads (a new tool each, ${uploads.length} samples) against a bare S3 PutObject + DynamoDB PutItem pair ` +
      `(${pairs.length} samples), same emulators, alternating in rounds of ${PER_ROUND}. Load average (1 min): ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.\n`,
  );
  console.log("| measurement | p50 ms | p99 ms | p50 / bare pair |");
  console.log("|---|---:|---:|---:|");
  console.log(`| POST /tools/upload, sequential | ${up.p50.toFixed(2)} | ${up.p99.toFixed(2)} | ${(up.p50 / bare.p50).toFixed(2)}× |`);
  console.log(`| bare pair: S3 PutObject + DynamoDB PutItem (SDK) | ${bare.p50.toFixed(2)} | ${bare.p99.toFixed(2)} | 1.00× |`);
}

async function timed(operation: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await operation();
  return performance.now() - start;
}
