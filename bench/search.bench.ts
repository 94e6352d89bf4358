/**
 * Registry search on the local server (real HTTP, one request at a time) with 1,000 and 10,000
 * tools: `GET /tools/search` p50/p99 against `GET /health` on the same server in the same run,
 * plus what keeping the index fresh costs: the storage scan and a full index build (what a cold
 * instance pays when no snapshot covers the catalog: functions/search/catalog-search.ts), and the
 * first search after a PUT (the log read, one tool re-read, one index update, and the search with
 * the index's score cache emptied by that write). The engine alone, snapshots and cold instances
 * up to 100,000 tools: bench/search-index.bench.ts.
 *
 * The catalogue (realistic tools and variants, test/functions/search/relevance-catalog.ts) is written in
 * bulk through the storage layer (test/functions/search/seed-catalog.ts): uploading 10,000 bundles over
 * HTTP would take minutes. Server and client share this process.
 *
 *   npx tsx bench/search.bench.ts      (or: npm run bench search)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalRegistry } from "../functions/local/start-local-registry.js";
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { LABELLED_QUERIES, scaledCatalog } from "../test/functions/search/relevance-catalog.js";
import { seedCatalog } from "../test/functions/search/seed-catalog.js";
import { p50p99 } from "./percentiles.js";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const SIZES = [1_000, 10_000];
const REQUESTS = 300;
const WARMUP = 30;

interface Row {
  tools: number;
  search: Stats;
  health: Stats;
  scanMs: number;
  buildMs: number;
  firstSearchAfterWriteMs: number;
}

interface Stats {
  p50: number;
  p99: number;
}

const dataDir = await mkdtemp(join(tmpdir(), "agent-tools-search-bench-"));
const local = await startLocalRegistry({ dataDir, port: 0, host: "127.0.0.1", token: "bench-token" });
const rows: Row[] = [];
try {
  let seeded = 0;
  for (const size of SIZES) {
    const catalog = scaledCatalog(size);
    const seedStart = performance.now();
    await seedCatalog(local, catalog.slice(seeded));
    console.error(`seeded ${size - seeded} tools in ${Math.round(performance.now() - seedStart)} ms`);
    seeded = size;
    rows.push(await measure(size));
  }
} finally {
  await local.close();
  await rm(dataDir, { recursive: true, force: true });
}
printTable(rows);

async function measure(tools: number): Promise<Row> {
  const scanStart = performance.now();
  const entries = await local.deps.entries.listAllLatest();
  const scanMs = performance.now() - scanStart;
  if (entries.length !== tools) throw new Error(`expected ${tools} tools in storage, found ${entries.length}`);
  const buildMs = median(await repeat(tools > 1_000 ? 1 : 3, async () => ToolSearchIndex.build(entries)));
  await get("/tools/search?q=warm+up"); // the server's index catches up with the seeding
  // A write through the API, then the first search: the reader re-reads that tool and the index takes its delta.
  const put = await fetch(`${local.url}/tools/${entries[3]!.tool_id}`, {
    method: "PUT",
    headers: { authorization: "Bearer bench-token", "content-type": "application/json" },
    body: JSON.stringify({ tool_search_description: "Updated for the benchmark" }),
  });
  if (put.status !== 200) throw new Error(`PUT answered ${put.status}`);
  const firstSearchAfterWriteMs = await time(() => get(`/tools/search?q=benchmark`));

  for (let i = 0; i < WARMUP; i++) {
    await get(searchPath(i));
    await get("/health");
  }
  const search: number[] = [];
  const health: number[] = [];
  // Interleaved, so both see the same machine conditions.
  for (let i = 0; i < REQUESTS; i++) {
    search.push(await time(() => get(searchPath(i))));
    health.push(await time(() => get("/health")));
  }
  return { tools, search: p50p99(search), health: p50p99(health), scanMs, buildMs, firstSearchAfterWriteMs };
}

function searchPath(i: number): string {
  return `/tools/search?q=${encodeURIComponent(LABELLED_QUERIES[i % LABELLED_QUERIES.length]![0])}&limit=10`;
}

async function get(path: string): Promise<void> {
  const response = await fetch(`${local.url}${path}`);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
}

async function time(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

/** Durations of `count` runs; with `selfTimed`, each run returns its own duration. */
async function repeat(count: number, action: () => Promise<unknown>, selfTimed = false): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await action();
    durations.push(selfTimed ? (result as number) : performance.now() - start);
  }
  return durations;
}

function median(samples: number[]): number {
  return p50p99(samples).p50;
}

function printTable(results: Row[]): void {
  const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(0));
  console.log(`Search latency, ${REQUESTS} sequential requests each (${LABELLED_QUERIES.length} queries cycled, limit=10):\n`);
  console.log("| tools | search p50 ms | search p99 ms | /health p50 ms | /health p99 ms | p50 ratio search / health |");
  console.log("|---:|---:|---:|---:|---:|---:|");
  for (const row of results) {
    console.log(
      `| ${row.tools} | ${ms(row.search.p50)} | ${ms(row.search.p99)} | ${ms(row.health.p50)} | ${ms(row.health.p99)} | ${(row.search.p50 / row.health.p50).toFixed(1)}× |`,
    );
  }
  console.log("\nKeeping the index fresh:\n");
  console.log("| tools | storage scan (all latest entries, dynalite) ms | full index build ms | first search after a PUT ms |");
  console.log("|---:|---:|---:|---:|");
  for (const row of results) {
    console.log(`| ${row.tools} | ${ms(row.scanMs)} | ${ms(row.buildMs)} | ${ms(row.firstSearchAfterWriteMs)} |`);
  }
}
