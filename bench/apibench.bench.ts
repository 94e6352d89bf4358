/**
 * Tool retrieval on a public benchmark: Gorilla's APIBench, rebuilt from a checkout of its
 * repository by `apibench-set.ts`. Reports top-1 and recall@5 of the registry's index next to a
 * plain BM25 baseline (one field, lower-cased words, no stemming, stop words or weights; k1 1.2,
 * b 0.75) over the same tool text, computed in the same run.
 *
 *   npx tsx bench/apibench.bench.ts <path to a gorilla checkout>
 *   GORILLA_CHECKOUT=<path> npm run bench apibench    (skipped when no path is given)
 */
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { apibenchSets, toolText } from "./apibench-set.js";
import { PlainBm25 } from "./plain-bm25.js";

const checkout = process.argv[2] ?? process.env.GORILLA_CHECKOUT;
if (checkout === undefined) {
  console.log("skipped: give the path of a ShishirPatil/gorilla checkout (argument or GORILLA_CHECKOUT)");
  process.exit(0);
}

interface Counts {
  queries: number;
  bm25Top1: number;
  oursTop1: number;
  bm25Recall5: number;
  oursRecall5: number;
}

console.log("| set | tools | queries | BM25 top-1 | ours top-1 | BM25 recall@5 | ours recall@5 |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
const totals: Counts = { queries: 0, bm25Top1: 0, oursTop1: 0, bm25Recall5: 0, oursRecall5: 0 };
for (const set of apibenchSets(checkout)) {
  const ours = ToolSearchIndex.build(set.tools);
  const baseline = new PlainBm25(set.tools.map((tool) => [tool.tool_id, toolText(tool)]));
  const counts: Counts = { queries: set.queries.length, bm25Top1: 0, oursTop1: 0, bm25Recall5: 0, oursRecall5: 0 };
  for (const { q, expected } of set.queries) {
    const ranked = ours.search({ q, limit: 5 }).map((hit) => hit.tool_id);
    const plain = baseline.search(q, 5);
    if (ranked[0] === expected) counts.oursTop1++;
    if (ranked.includes(expected)) counts.oursRecall5++;
    if (plain[0] === expected) counts.bm25Top1++;
    if (plain.includes(expected)) counts.bm25Recall5++;
  }
  ours.close();
  console.log(row(set.name, String(set.tools.length), counts));
  for (const key of Object.keys(totals) as (keyof Counts)[]) totals[key] += counts[key];
}
console.log(row("all", "", totals));
const gain = (totals.oursTop1 - totals.bm25Top1) / totals.queries;
console.log(`\ntop-1 over the baseline: ${gain >= 0 ? "+" : ""}${(100 * gain).toFixed(1)} points`);

function row(name: string, tools: string, counts: Counts): string {
  const share = (count: number) => (count / counts.queries).toFixed(3);
  return `| ${name} | ${tools} | ${counts.queries} | ${share(counts.bm25Top1)} | ${share(counts.oursTop1)} | ${share(counts.bm25Recall5)} | ${share(counts.oursRecall5)} |`;
}
