/**
 * Tool retrieval on a public benchmark: Gorilla's APIBench, rebuilt from a checkout of its
 * repository by `apibench-set.ts`, reported by `retrieval-report.ts` (ours next to plain BM25 and
 * FTS5+porter computed in the same run, by set and by part).
 *
 *   npx tsx bench/apibench.bench.ts <path to a ShishirPatil/gorilla checkout>
 *   GORILLA_CHECKOUT=<path> npm run bench apibench    (skipped when no path is given)
 */
import { apibenchSets } from "./apibench-set.js";
import { runRetrievalBench } from "./retrieval-bench.js";

runRetrievalBench("GORILLA_CHECKOUT", "ShishirPatil/gorilla", apibenchSets);
