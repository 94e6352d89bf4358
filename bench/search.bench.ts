/**
 * Registry search on the local server (real HTTP, one request at a time) with 1,000 and 10,000
 * tools: `GET /tools/search` p50/p99 against `GET /health` on the same server in the same run;
 * searches with one PUT before every 20 against searches with none, the two interleaved round by
 * round (a write patches the index's caches: functions/search/term-scores.ts); and what a cold
 * instance pays when no snapshot covers the catalog (functions/search/catalog-search.ts): the
 * storage scan alone, and a cold index with no snapshot from its first read of the table to its
 * first answer (the scan's pages indexed as they arrive). The engine alone, snapshots and cold
 * instances up to 100,000 tools: bench/search-index.bench.ts; writes at 50,000:
 * bench/search-writes.bench.ts.
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
import { CatalogSearch } from "../functions/search/catalog-search.js";
import { LABELLED_QUERIES, scaledCatalog } from "../test/functions/search/relevance-catalog.js";
import { seedCatalog } from "../test/functions/search/seed-catalog.js";
import { p50p99 } from "./percentiles.js";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

const SIZES = [1_000, 10_000];
const REQUESTS = 300;
const WARMUP = 30;
const WRITE_ROUNDS = 20;
const SEARCHES_PER_WRITE = 20;

interface Row {
  tools: number;
  search: Stats;
  health: Stats;
  warm: Stats;
  afterWrites: Stats;
  scanMs: number;
  noSnapshotMs: number;
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
  const entries = await local.deps.entries.reads.listAllLatest();
  const scanMs = performance.now() - scanStart;
  if (entries.length !== tools) throw new Error(`expected ${tools} tools in storage, found ${entries.length}`);
  // A cold index of this process with no snapshot: its first answer needs the whole table.
  const noSnapshotMs = median(
    await repeat(tools > 1_000 ? 1 : 3, () =>
      new CatalogSearch({ entries: local.deps.entries }, 0).search({ q: "count words", limit: 10 }),
    ),
  );
  await get("/tools/search?q=warm+up"); // the server's index catches up with the seeding

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
  // Writes through the API: the server's index re-reads the tool named by each and patches itself.
  const warm: number[] = [];
  const afterWrites: number[] = [];
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const halves = [
      async () => {
        for (let i = 0; i < SEARCHES_PER_WRITE; i++) warm.push(await time(() => get(searchPath(i))));
      },
      async () => {
        const put = await fetch(`${local.url}/tools/${entries[(round * 7919) % entries.length]!.tool_id}`, {
          method: "PUT",
          headers: { authorization: "Bearer bench-token", "content-type": "application/json" },
          body: JSON.stringify({ tool_search_description: `Updated for the benchmark, round ${round}` }),
        });
        if (put.status !== 200) throw new Error(`PUT answered ${put.status}`);
        for (let i = 0; i < SEARCHES_PER_WRITE; i++) afterWrites.push(await time(() => get(searchPath(i))));
      },
    ];
    for (const half of round % 2 === 0 ? halves : halves.reverse()) await half();
  }
  return {
    tools,
    search: p50p99(search),
    health: p50p99(health),
    warm: p50p99(warm),
    afterWrites: p50p99(afterWrites),
    scanMs,
    noSnapshotMs,
  };
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

/** Durations of `count` runs. */
async function repeat(count: number, action: () => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < count; i++) durations.push(await time(action));
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
      `| ${row.tools} | ${ms(row.search.p50)} | ${ms(row.search.p99)} | ${ms(row.health.p50)} ` +
        `| ${ms(row.health.p99)} | ${(row.search.p50 / row.health.p50).toFixed(1)}× |`,
    );
  }
  console.log(
    `\nWrites: ${WRITE_ROUNDS} rounds of ${SEARCHES_PER_WRITE} searches with no ` +
      `write before them and ${SEARCHES_PER_WRITE} after one PUT, interleaved:\n`,
  );
  console.log("| tools | no writes p50 / p99 ms | one PUT per 20 searches p50 / p99 ms | p50 ratio |");
  console.log("|---:|---:|---:|---:|");
  for (const row of results) {
    console.log(
      `| ${row.tools} | ${ms(row.warm.p50)} / ${ms(row.warm.p99)} | ${ms(row.afterWrites.p50)} ` +
        `/ ${ms(row.afterWrites.p99)} | ${(row.afterWrites.p50 / row.warm.p50).toFixed(2)}× |`,
    );
  }
  console.log("\nWithout a snapshot (the table read in parallel tool-id ranges):\n");
  console.log("| tools | storage scan (all latest entries, dynalite) ms | cold index, no snapshot: table to first answer ms |");
  console.log("|---:|---:|---:|");
  for (const row of results) console.log(`| ${row.tools} | ${ms(row.scanMs)} | ${ms(row.noSnapshotMs)} |`);
}
