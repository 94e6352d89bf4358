/**
 * Searches right after a write against warm searches, the two interleaved in one process: each
 * round runs 20 searches with no write before them (warm) and 20 searches right after one write
 * (a tool's description edited, as a PUT does, through `ToolSearchIndex.upsert`), the two halves'
 * order alternating between rounds. A write patches the statistics and the cached scores of the
 * terms it touches (functions/search/term-scores.ts) instead of emptying them, so the searches
 * after it should cost what warm ones do. Reported: p50 and p99 of each kind over all rounds, the
 * ratio of p50s, the spread of that ratio over blocks of rounds (min–max), and the writes' p50.
 *
 *   npx tsx bench/search-writes.bench.ts              (or: npm run bench search-writes)
 *   SEARCH_BENCH_SIZES=50000 npx tsx bench/search-writes.bench.ts
 */
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { LABELLED_QUERIES, scaledCatalog } from "../test/functions/search/relevance-catalog.js";
import { p50p99, percentile } from "./percentiles.js";

const ROUNDS = 60;
const SEARCHES_PER_HALF = 20;
const BLOCKS = 5;

const sizes = (process.env.SEARCH_BENCH_SIZES ?? "10000,50000").split(",").map(Number);
console.log(
  `${ROUNDS} rounds per size, each ${SEARCHES_PER_HALF} warm searches and ${SEARCHES_PER_HALF} right ` +
    `after one write (order alternating), ${LABELLED_QUERIES.length} labelled queries cycled, limit 10.\n`,
);
console.log("| tools | warm p50 / p99 ms | after a write p50 / p99 ms | after / warm p50 | spread over blocks of rounds | write p50 ms |");
console.log("|---:|---:|---:|---:|---:|---:|");
for (const size of sizes) console.log(row(size));

function row(size: number): string {
  const tools = scaledCatalog(size).map((tool) => ({ ...tool, version: "1.0.0" }));
  const index = ToolSearchIndex.build(tools, 1);
  let next = 0;
  const search = () => {
    const q = LABELLED_QUERIES[next++ % LABELLED_QUERIES.length]![0];
    const start = performance.now();
    index.search({ q, limit: 10 });
    return performance.now() - start;
  };
  for (let i = 0; i < 3 * LABELLED_QUERIES.length; i++) search();
  const warm: number[][] = [];
  const afterWrite: number[][] = [];
  const writes: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const halves = [
      () => warm.push(Array.from({ length: SEARCHES_PER_HALF }, search)),
      () => {
        const tool = tools[(round * 7919) % tools.length]!;
        const start = performance.now();
        index.upsert({ ...tool, tool_search_description: `${tool.tool_search_description} (revised ${round})` });
        writes.push(performance.now() - start);
        afterWrite.push(Array.from({ length: SEARCHES_PER_HALF }, search));
      },
    ];
    for (const half of round % 2 === 0 ? halves : halves.reverse()) half();
  }
  index.close();
  const warmAll = p50p99(warm.flat());
  const afterAll = p50p99(afterWrite.flat());
  const perBlock = Array.from({ length: BLOCKS }, (_, block) => {
    const rounds = (list: number[][]) => list.slice((block * ROUNDS) / BLOCKS, ((block + 1) * ROUNDS) / BLOCKS).flat();
    return percentile(rounds(afterWrite), 0.5) / percentile(rounds(warm), 0.5);
  });
  const ms = (value: number) => value.toFixed(2);
  return (
    `| ${size} | ${ms(warmAll.p50)} / ${ms(warmAll.p99)} | ${ms(afterAll.p50)} / ` +
    `${ms(afterAll.p99)} | ${(afterAll.p50 / warmAll.p50).toFixed(2)}× | ` +
    `${Math.min(...perBlock).toFixed(2)}–${Math.max(...perBlock).toFixed(2)}× | ${ms(percentile(writes, 0.5))} |`
  );
}
