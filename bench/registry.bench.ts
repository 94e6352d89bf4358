/**
 * Registry throughput and latency on the local server (10 connections, a few seconds each):
 * `GET /tools/{id}`, `GET /tools` and upload, each compared with (a) the bare storage call it
 * wraps (DynamoDB GetItem / Query, S3 PutObject through the SDK on the same emulators) and (b) a
 * Hono hello-world route on the same server, all measured in this run. The server runs in a
 * child process so the load generator does not share its event loop.
 *
 *   npx tsx bench/registry.bench.ts      (or: npm run bench registry)
 */
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import autocannon from "autocannon";
import { createDynamoDocumentClient, createS3Client } from "../functions/storage/aws-clients.js";
import { indexQueryInput } from "../functions/storage/index-query.js";
import { LATEST_CATALOG, LATEST_INDEX, LATEST_SORT_KEY } from "../functions/storage/table-schema.js";
import { buildBundle, buildPythonToolZip, FIXTURE_TOOLS_DIR, readFixtureSpec, zipFiles } from "../test/support/bundles.js";
import { type ServerReady, withLocalRegistry } from "./child-server.js";
import { p50p99 } from "./percentiles.js";

const CONNECTIONS = 10;
const SECONDS = 3;
const UPLOAD_BODIES = 1500;

interface Measure {
  name: string;
  p50: number;
  p99: number;
  perSecond: number;
  failures: number;
  /** What the failures were: status codes, connection errors, timeouts. */
  failureKinds?: string;
}

// Before any SDK client exists (imports above only load code).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

// The child also serves a Hono hello-world route, the floor of any request.
await withLocalRegistry(import.meta.url, run, { extraRoutes: [(app) => app.get("/hello", (c) => c.text("Hello Hono!"))] });

async function run({ url, token, config }: ServerReady): Promise<void> {
  const spec = readFixtureSpec("text-stats");
  const toolZip = buildPythonToolZip(join(FIXTURE_TOOLS_DIR, "text-stats"));
  const toolMd = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8");
  const first = multipart(buildBundle({ spec, toolZip, toolMd }));
  const uploaded = await fetch(`${url}/tools/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": first.contentType },
    body: first.body,
  });
  if (uploaded.status !== 200) throw new Error(`seed upload failed: ${uploaded.status} ${await uploaded.text()}`);

  await autocannon({ url: `${url}/hello`, connections: CONNECTIONS, duration: 1 }); // warm-up (JIT, sockets)
  // Reads alternate and keep each one's better run, so a burst of load elsewhere skews no single row.
  const reads = [
    { name: "Hono hello-world (GET /hello)", url: `${url}/hello` },
    { name: "GET /tools/{id}", url: `${url}/tools/text-stats` },
    { name: "GET /tools", url: `${url}/tools` },
  ];
  const best = new Map<string, Measure>();
  for (let round = 0; round < 2; round++) {
    for (const read of reads) {
      const measure = await http(read.name, { url: read.url });
      if ((best.get(read.name)?.perSecond ?? -1) < measure.perSecond) best.set(read.name, measure);
    }
  }
  const [hello, getTool, listTools] = reads.map((read) => best.get(read.name)!) as [Measure, Measure, Measure];

  // Each upload is a new tool with its own code bytes, so each one stores a new archive.
  const functionPy = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py"));
  const bodies = Array.from({ length: UPLOAD_BODIES }, (_, i) =>
    multipart(
      buildBundle({
        spec: { ...spec, tool_id: `bench-tool-${i}` },
        toolZip: zipFiles({ "code/function.py": functionPy, "code/build.txt": String(i) }),
        toolMd,
      }),
    ),
  );
  let next = 0;
  const upload = await http("POST /tools/upload (a new tool each)", {
    url: `${url}/tools/upload`,
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": bodies[0]!.contentType },
    requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length]!.body }) }],
  });

  const db = createDynamoDocumentClient(config);
  const s3 = createS3Client(config);
  const getItem = await bare("DynamoDB GetItem (SDK)", () =>
    db.send(
      new GetCommand({ TableName: config.tableName, Key: { tool_id: "text-stats", version: LATEST_SORT_KEY }, ConsistentRead: true }),
    ),
  );
  const query = await bare("DynamoDB Query, latest index (SDK)", () =>
    db.send(new QueryCommand({ ...indexQueryInput(config.tableName, LATEST_INDEX, LATEST_CATALOG), Limit: 50 })),
  );
  const putObject = await bare("S3 PutObject of tool.zip (SDK)", () =>
    s3.send(new PutObjectCommand({ Bucket: config.bucketName, Key: "bench/baseline", Body: toolZip, ContentLength: toolZip.byteLength })),
  );
  db.destroy();
  s3.destroy();

  const rows: [Measure, Measure][] = [
    [hello, hello],
    [getTool, getItem],
    [listTools, query],
    [upload, putObject],
  ];
  console.log(
    `Registry on the local server: ${CONNECTIONS} connections, ${SECONDS} s per run (reads: better of 2 alternating runs); ` +
      `bare calls: ${CONNECTIONS} concurrent, same emulators. Load average (1 min) when done: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.\n`,
  );
  console.log(
    "| request | p50 ms | p99 ms | req/s | bare storage call | its p50 ms | its ops/s | req/s vs bare call | req/s vs hello-world |",
  );
  console.log("|---|---:|---:|---:|---|---:|---:|---:|---:|");
  for (const [route, base] of rows) {
    const isHello = route === hello;
    console.log(
      `| ${route.name} | ${fmt(route.p50)} | ${fmt(route.p99)} | ${Math.round(route.perSecond)} | ${isHello ? "(none)" : base.name} | ` +
        `${isHello ? "" : fmt(base.p50)} | ${isHello ? "" : Math.round(base.perSecond)} | ${isHello ? "" : ratio(route.perSecond, base.perSecond)} | ` +
        `${ratio(route.perSecond, hello.perSecond)} |`,
    );
  }
  const failures = [hello, getTool, listTools, upload].filter((m) => m.failures > 0);
  for (const m of failures) console.log(`\nnote: ${m.name}: ${m.failures} non-2xx responses or errors (${m.failureKinds ?? "errors"})`);
}

async function http(name: string, options: autocannon.Options): Promise<Measure> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  return {
    name,
    p50: result.latency.p50,
    p99: result.latency.p99,
    perSecond: result["2xx"] / result.duration,
    failures: result.non2xx + result.errors,
    failureKinds: [
      ...Object.entries(result.statusCodeStats ?? {})
        .filter(([code]) => !code.startsWith("2"))
        .map(([code, stats]) => `${stats.count ?? 0}× HTTP ${code}`),
      `${result.errors} errors (${result.timeouts} timeouts)`,
    ].join(", "),
  };
}

/** `CONNECTIONS` concurrent loops calling `call` for `SECONDS`; latency percentiles in ms. */
async function bare(name: string, call: () => Promise<unknown>): Promise<Measure> {
  const latencies: number[] = [];
  const end = performance.now() + SECONDS * 1000;
  let failures = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        try {
          await call();
          latencies.push(performance.now() - start);
        } catch {
          failures++;
        }
      }
    }),
  );
  return { name, ...p50p99(latencies), perSecond: latencies.length / SECONDS, failures };
}

function multipart(bundle: Uint8Array): { body: Buffer; contentType: string } {
  const boundary = "bench-boundary-7f3a";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bundle.zip"\r\nContent-Type: application/zip\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), bundle, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

function ratio(a: number, b: number): string {
  return `${(a / b).toFixed(2)}×`;
}
