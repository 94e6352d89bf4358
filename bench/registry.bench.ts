/**
 * Registry throughput and latency on the local server (10 connections), every case interleaved
 * with its baselines in rounds (bench/interleaved.ts), each ratio the median of the rounds' ratios
 * with their range:
 *   reads, on a toy catalogue (one tool) and on a real one (10,000 tools, a 50-item page):
 *     GET /tools/{id} and GET /tools against a Hono hello-world route on the same server, and
 *     against the bare storage call they would otherwise make (DynamoDB GetItem / Query of 50,
 *     through the SDK on the same emulators);
 *   publishes: POST /tools/upload (a new tool each) against the bare pair (S3 PutObject +
 *     DynamoDB PutItem, 10 concurrent) and Verdaccio's publish (bench/verdaccio.ts).
 * Each registry runs in a child process, so the load generator does not share its event loop.
 *
 *   npx tsx bench/registry.bench.ts      (or: npm run bench registry)
 */
import { cpus, loadavg } from "node:os";
import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import autocannon from "autocannon";
import type { RouteModule } from "../functions/route-module.js";
import { createDynamoDocumentClient } from "../functions/storage/aws-clients.js";
import { indexQueryInput } from "../functions/storage/index-query.js";
import { LATEST_CATALOG, LATEST_INDEX, LATEST_SORT_KEY } from "../functions/storage/table-schema.js";
import { type ServerReady, startRegistryChild, withLocalRegistry } from "./child-server.js";
import { formatRatio, inRounds, roundRatios, roundsOr, type Spread } from "./interleaved.js";
import { p50p99 } from "./percentiles.js";
import { barePair, MULTIPART_TYPE, multipart, newTools, type NewTool, TOOL_MD, uploadTool } from "./publish-workload.js";
import { JSON_HEADERS, publishBody, startVerdaccio, VERDACCIO_VERSION } from "./verdaccio.js";

const CONNECTIONS = 10;
const SECONDS = 2;
const ROUNDS = roundsOr(3);
const CATALOGUE = 10_000;
const PAGE = 50;
/** New tools per publishing case: more than 10 connections publish in all rounds. */
const PUBLISHES = 6_000;
const READ_AIM = 0.5;
const PUBLISH_AIM = 0.5;

interface Measure {
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  /** What the failures were: status codes, connection errors, timeouts. */
  failureKinds?: string;
}

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const hello: RouteModule = (app) => {
  app.get("/hello", (c) => c.text("Hello Hono!"));
};

// Both children serve a Hono hello-world route, the floor of any request.
await withLocalRegistry(import.meta.url, run, { extraRoutes: [hello] });

async function run(toy: ServerReady): Promise<void> {
  const real = await startRegistryChild(import.meta.url);
  const verdaccio = await startVerdaccio();
  try {
    const [toyTool] = newTools(1, "toy");
    await uploadTool(toy.url, toy.token, toyTool!);
    await real.seed(CATALOGUE);
    await autocannon({ url: `${toy.url}/hello`, connections: CONNECTIONS, duration: 1 }); // warm-up (JIT, sockets)
    await readRounds(toy, real);
    await publishRounds(toy, verdaccio.url);
  } finally {
    await verdaccio.close();
    await real.stop();
  }
  console.log(`\nLoad average (1 min) when done: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`);
}

async function readRounds(toy: ServerReady, real: ServerReady): Promise<void> {
  const db = createDynamoDocumentClient(real.config);
  const cases = {
    "toy hello": () => http({ url: `${toy.url}/hello` }),
    "toy tool": () => http({ url: `${toy.url}/tools/toy-0` }),
    "toy list": () => http({ url: `${toy.url}/tools` }),
    "real hello": () => http({ url: `${real.url}/hello` }),
    "real tool": () => http({ url: `${real.url}/tools/catalog-05000` }),
    "real list": () => http({ url: `${real.url}/tools?limit=${PAGE}` }),
    "bare get": () =>
      bare(() =>
        db.send(
          new GetCommand({
            TableName: real.config.tableName,
            Key: { tool_id: "catalog-05000", version: LATEST_SORT_KEY },
            ConsistentRead: true,
          }),
        ),
      ),
    "bare query": () =>
      bare(() => db.send(new QueryCommand({ ...indexQueryInput(real.config.tableName, LATEST_INDEX, LATEST_CATALOG), Limit: PAGE }))),
  };
  type Case = keyof typeof cases;
  const rounds = await inRounds(Object.keys(cases) as Case[], ROUNDS, (name) => cases[name]());
  db.destroy();

  const rate = (name: Case) => rounds[name].map((measure) => measure.perSecond);
  const rows: [label: string, catalogue: string, name: Case, hello: Case, bareCall?: [string, Case]][] = [
    ["Hono hello-world (GET /hello)", "toy: 1 tool", "toy hello", "toy hello"],
    ["GET /tools/{id}", "toy: 1 tool", "toy tool", "toy hello"],
    ["GET /tools (the whole catalogue: 1 entry)", "toy: 1 tool", "toy list", "toy hello"],
    ["Hono hello-world (GET /hello)", `real: ${CATALOGUE.toLocaleString("en")} tools`, "real hello", "real hello"],
    ["GET /tools/{id}", `real: ${CATALOGUE.toLocaleString("en")} tools`, "real tool", "real hello", ["DynamoDB GetItem (SDK)", "bare get"]],
    [
      `GET /tools?limit=${PAGE} (a ${PAGE}-item page)`,
      `real: ${CATALOGUE.toLocaleString("en")} tools`,
      "real list",
      "real hello",
      [`DynamoDB Query of ${PAGE}, latest index (SDK)`, "bare query"],
    ],
  ];
  console.log(
    `Reads: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per case; req/s is the median of the rounds; ` +
      `ratios are the median of the rounds' ratios (their range); bare calls: ${CONNECTIONS} concurrent loops, same emulators.\n`,
  );
  console.log(
    "| request | catalogue | p50 ms | p99 ms | req/s | vs hello-world, same server | bare storage call | its req/s | vs bare call |",
  );
  console.log("|---|---|---:|---:|---:|---:|---|---:|---:|");
  const aims: string[] = [];
  for (const [label, catalogue, name, helloCase, bareCall] of rows) {
    const { p50, p99 } = median(rounds[name]);
    const versusHello = name === helloCase ? "1.00×" : formatRatio(roundRatios(rate(name), rate(helloCase)));
    const bareCells = bareCall
      ? `${bareCall[0]} | ${Math.round(median(rounds[bareCall[1]]).perSecond)} | ${formatRatio(roundRatios(rate(name), rate(bareCall[1])))}`
      : "(none) | | ";
    console.log(
      `| ${label} | ${catalogue} | ${fmt(p50)} | ${fmt(p99)} | ` +
        `${Math.round(median(rounds[name]).perSecond)} | ${versusHello} | ${bareCells} |`,
    );
    if (name !== helloCase)
      aims.push(aimLine(`${label}, ${catalogue}, vs hello-world`, roundRatios(rate(name), rate(helloCase)), READ_AIM));
  }
  console.log(`\n${aims.join("\n")}`);
  notes(rounds);
}

async function publishRounds(toy: ServerReady, verdaccioUrl: string): Promise<void> {
  const pair = barePair(toy.config);
  const tools = { upload: newTools(PUBLISHES, "conc"), pair: newTools(PUBLISHES, "conc-pair"), verdaccio: newTools(PUBLISHES, "conc-vd") };
  const next = { upload: 0, pair: 0, verdaccio: 0 };
  const take = (kind: keyof typeof next): NewTool => tools[kind][next[kind]++ % PUBLISHES]!;
  const cases = {
    upload: () =>
      http({
        url: `${toy.url}/tools/upload`,
        method: "POST",
        headers: { authorization: `Bearer ${toy.token}`, "content-type": MULTIPART_TYPE },
        requests: [{ setupRequest: (request) => ({ ...request, body: multipart(take("upload").bundle) }) }],
      }),
    pair: () => bare(() => pair.write(take("pair"))),
    verdaccio: () =>
      http({
        url: verdaccioUrl,
        method: "PUT",
        headers: JSON_HEADERS,
        requests: [
          {
            setupRequest: (request) => {
              const tool = take("verdaccio");
              return { ...request, path: `/${tool.toolId}`, body: publishBody(tool.toolId, tool.bundle, TOOL_MD) };
            },
          },
        ],
      }),
  };
  type Case = keyof typeof cases;
  const rounds = await inRounds(Object.keys(cases) as Case[], ROUNDS, (name) => cases[name]());
  pair.close();

  const rate = (name: Case) => rounds[name].map((measure) => measure.perSecond);
  console.log(
    `\nPublishes, a new tool each: ${CONNECTIONS} connections, ${ROUNDS} interleaved ` +
      `rounds of ${SECONDS} s per case; req/s is the median of the rounds; ratios as above.\n`,
  );
  console.log("| publish | p50 ms | p99 ms | req/s | vs bare pair | vs Verdaccio |");
  console.log("|---|---:|---:|---:|---:|---:|");
  const labels: Record<Case, string> = {
    upload: "POST /tools/upload",
    pair: "baseline: bare pair, S3 PutObject + DynamoDB PutItem (SDK, same emulators)",
    verdaccio: `baseline: Verdaccio ${VERDACCIO_VERSION} publish (PUT /<package>, same bytes)`,
  };
  for (const name of Object.keys(cases) as Case[]) {
    const { p50, p99, perSecond } = median(rounds[name]);
    const versus = (baseline: Case) => (baseline === name ? "1.00×" : formatRatio(roundRatios(rate(name), rate(baseline))));
    console.log(`| ${labels[name]} | ${fmt(p50)} | ${fmt(p99)} | ${Math.round(perSecond)} | ${versus("pair")} | ${versus("verdaccio")} |`);
  }
  console.log(`\n${aimLine("upload throughput vs Verdaccio", roundRatios(rate("upload"), rate("verdaccio")), PUBLISH_AIM)}`);
  notes(rounds);
}

/** A round's measure for each case: the one with the median rate. */
function median(measures: Measure[]): Measure {
  return [...measures].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(measures.length / 2)]!;
}

function aimLine(what: string, ratio: Spread, aim: number): string {
  return `${what}: ${formatRatio(ratio)} (aim ≥ ${aim}×): ${ratio.median >= aim ? "met" : "missed"}`;
}

function notes(rounds: Record<string, Measure[]>): void {
  for (const [name, measures] of Object.entries(rounds)) {
    const failed = measures.filter((measure) => measure.failures > 0);
    for (const measure of failed)
      console.log(`\nnote: ${name}: ${measure.failures} non-2xx responses or errors (${measure.failureKinds ?? "errors"})`);
    // A round in which nothing was answered in time makes its ratios 0 or infinite: say so.
    const silent = measures.filter((measure) => measure.perSecond === 0).length;
    if (silent > 0)
      console.log(`\nnote: ${name}: nothing answered within ${SECONDS} s in ${silent} of ${measures.length} rounds (machine too busy)`);
  }
}

async function http(options: autocannon.Options): Promise<Measure> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  return {
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
async function bare(call: () => Promise<unknown>): Promise<Measure> {
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
  return { ...p50p99(latencies), perSecond: latencies.length / SECONDS, failures };
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}
