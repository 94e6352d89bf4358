/**
 * The search index engine (SQLite FTS5 through better-sqlite3) at 1,000 to 100,000 tools, in
 * process, one core: build time, snapshot size, what a cold instance pays to answer its first
 * search from a snapshot (gunzip + open + first query), memory, and search latency/throughput
 * over the labelled queries. The catalogue is the realistic scaled set (test/search/relevance-catalog.ts).
 * Storage round trips (S3 GetObject of the snapshot, one DynamoDB GetItem for the revision log)
 * come on top on AWS; bench/search.bench.ts measures the HTTP path at 1,000 and 10,000 tools.
 *
 *   node --expose-gc --import tsx bench/search-index.bench.ts   (or: npm run bench search-index)
 */
import { gunzipSync, gzipSync } from "node:zlib";
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { LABELLED_QUERIES, scaledCatalog } from "../test/search/relevance-catalog.js";
import { p50p99 } from "./percentiles.js";

const SIZES = (process.env.SEARCH_BENCH_SIZES ?? "1000,10000,50000,100000").split(",").map(Number);
const SEARCHES = 2_000;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

console.log("| tools | build s | snapshot MiB (gzip) | cold: gunzip + open + first search ms | heap MiB | RSS MiB | search p50 ms | search p99 ms | searches/s (1 core) |");
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const size of SIZES) {
  const entries = scaledCatalog(size).map((tool) => ({ ...tool, version: "1.0.0" }));
  let start = performance.now();
  const built = ToolSearchIndex.build(entries, 1);
  const buildS = (performance.now() - start) / 1000;
  const snapshot = gzipSync(built.serialize(), { level: 6 });
  built.close();

  gc();
  const before = process.memoryUsage();
  start = performance.now();
  const index = ToolSearchIndex.open(gunzipSync(snapshot));
  index.search({ q: LABELLED_QUERIES[0]![0], limit: 10 });
  const coldMs = performance.now() - start;
  gc();
  const after = process.memoryUsage();

  const latencies: number[] = [];
  const runStart = performance.now();
  for (let i = 0; i < SEARCHES; i++) {
    const searchStart = performance.now();
    index.search({ q: LABELLED_QUERIES[i % LABELLED_QUERIES.length]![0], limit: 10 });
    latencies.push(performance.now() - searchStart);
  }
  const perSecond = SEARCHES / ((performance.now() - runStart) / 1000);
  const { p50, p99 } = p50p99(latencies);
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
  console.log(
    `| ${size} | ${buildS.toFixed(1)} | ${mib(snapshot.byteLength)} | ${coldMs.toFixed(0)} | ${mib(after.heapUsed - before.heapUsed)} | ${mib(after.rss - before.rss)} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${perSecond.toFixed(0)} |`,
  );
  index.close();
}
