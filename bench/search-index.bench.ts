/**
 * The search index engine (SQLite FTS5; node:sqlite on Node 24, better-sqlite3 on Node 20) at
 * 1,000 to 100,000 tools, one core. This process builds each index and stores its snapshot
 * (gzipped, as the indexer does) in a temporary file; a fresh Node process then plays a cold
 * search instance: it reads the file, gunzips and opens it, answers its first search, then runs
 * the labelled queries: the first pass over them (every term new to the instance's score cache,
 * as after a write: functions/search/term-scores.ts) and then steady state. Its memory is read
 * after those searches, caches full. Storage round trips (S3 GetObject of the snapshot, one
 * DynamoDB GetItem for the revision log) come on top on AWS; bench/search.bench.ts measures the
 * HTTP path.
 *
 * Aims (issue 13): first search of a cold instance ≤ 200 ms at 10,000 tools and ≤ 1.5 s at
 * 100,000; at 50,000 p50 ≤ 3 ms, ≥ 300 searches/s on one core, index heap < 100 MiB; memory
 * within the search function's 512 MB at 100,000. The baseline in the same run is the first
 * row's steady-state p50 (1,000 tools): the ratio column says how search cost grows with size.
 *
 *   node --expose-gc --import tsx bench/search-index.bench.ts   (or: npm run bench search-index)
 *   SEARCH_BENCH_SIZES=10000,50000 node --expose-gc --import tsx bench/search-index.bench.ts
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { SqliteDatabase, sqliteDriverName } from "../functions/search/sqlite-driver.js";
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { LABELLED_QUERIES, scaledCatalog } from "../test/functions/search/relevance-catalog.js";
import { p50p99 } from "./percentiles.js";

const SEARCHES = 3_000;
const INSTANCE_FLAG = "--cold-instance";

interface InstanceRun {
  coldMs: number;
  /** Where the cold start goes: gunzip, open (deserialise), the first search (its terms' scores read from FTS5). */
  coldParts: { gunzipMs: number; openMs: number; firstSearchMs: number };
  firstPass: { p50: number; p99: number };
  steady: { p50: number; p99: number };
  perSecond: number;
  heapMiB: number;
  rssMiB: number;
  maxRssMiB: number;
}

if (process.argv[2] === INSTANCE_FLAG) {
  process.stdout.write(JSON.stringify(coldInstance(process.argv[3]!)));
} else {
  const sizes = (process.env.SEARCH_BENCH_SIZES ?? "1000,10000,50000,100000").split(",").map(Number);
  const dir = mkdtempSync(join(tmpdir(), "agent-tools-search-index-bench-"));
  try {
    console.log(
      `Driver ${sqliteDriverName()} on Node ${process.version}; ${SEARCHES} searches per size over ${LABELLED_QUERIES.length} labelled queries.\n`,
    );
    console.log(
      "| tools | build s | snapshot MiB (gzip) | cold: read + gunzip + open + first search ms (gunzip / open / search) | first pass p50 / p99 ms | search p50 ms | search p99 ms | searches/s (1 core) | p50 / 1,000-tool p50 | heap + buffers MiB | RSS MiB | peak RSS MiB |",
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    let baselineP50: number | undefined;
    for (const size of sizes) {
      const start = performance.now();
      const built = ToolSearchIndex.build(
        scaledCatalog(size).map((tool) => ({ ...tool, version: "1.0.0" })),
        1,
      );
      const buildS = (performance.now() - start) / 1000;
      const file = join(dir, `${size}.gz`);
      writeFileSync(file, gzipSync(built.serialize(), { level: 6 }));
      built.close();
      const run = JSON.parse(
        execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), INSTANCE_FLAG, file], {
          encoding: "utf8",
          maxBuffer: 1 << 20,
        }),
      ) as InstanceRun;
      baselineP50 ??= run.steady.p50;
      const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
      console.log(
        `| ${size} | ${buildS.toFixed(1)} | ${mib(readFileSync(file).byteLength)} | ${run.coldMs.toFixed(0)} (${run.coldParts.gunzipMs.toFixed(0)} / ${run.coldParts.openMs.toFixed(0)} / ${run.coldParts.firstSearchMs.toFixed(0)}) | ${run.firstPass.p50.toFixed(2)} / ${run.firstPass.p99.toFixed(1)} | ${run.steady.p50.toFixed(2)} | ${run.steady.p99.toFixed(2)} | ${run.perSecond.toFixed(0)} | ${(run.steady.p50 / baselineP50).toFixed(1)}× | ${run.heapMiB.toFixed(1)} | ${run.rssMiB.toFixed(0)} | ${run.maxRssMiB.toFixed(0)} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh process's life as a search instance: its snapshot file to first answer, then searches. */
function coldInstance(file: string): InstanceRun {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  SqliteDatabase.inMemory().close(); // the driver loads with the process (the bundle's import), not with the first search
  gc();
  // The cached scores are typed arrays: their bytes count outside the V8 heap, so both are added.
  const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  const start = performance.now();
  let gunzipped = start;
  // In a block, so the snapshot's bytes are garbage once open, as in CatalogSearch.
  const index = (() => {
    const bytes = gunzipSync(readFileSync(file));
    gunzipped = performance.now();
    return ToolSearchIndex.open(bytes);
  })();
  const opened = performance.now();
  index.search({ q: LABELLED_QUERIES[0]![0], limit: 10 });
  const coldMs = performance.now() - start;
  const coldParts = { gunzipMs: gunzipped - start, openMs: opened - gunzipped, firstSearchMs: start + coldMs - opened };

  const timed = (q: string) => {
    const searchStart = performance.now();
    index.search({ q, limit: 10 });
    return performance.now() - searchStart;
  };
  const firstPass = LABELLED_QUERIES.slice(1).map(([q]) => timed(q));
  const latencies: number[] = [];
  const runStart = performance.now();
  for (let i = 0; i < SEARCHES; i++) latencies.push(timed(LABELLED_QUERIES[i % LABELLED_QUERIES.length]![0]));
  const perSecond = SEARCHES / ((performance.now() - runStart) / 1000);
  gc();
  const memory = process.memoryUsage();
  const mib = (bytes: number) => bytes / 2 ** 20;
  return {
    coldMs,
    coldParts,
    firstPass: p50p99(firstPass),
    steady: p50p99(latencies),
    perSecond,
    heapMiB: mib(memory.heapUsed + memory.arrayBuffers - heapBefore),
    rssMiB: mib(memory.rss),
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  };
}
