/**
 * Tool retrieval on a public benchmark: Gorilla's APIBench, rebuilt from a checkout of its
 * repository by `apibench-set.ts`, reported by `retrieval-report.ts` (ours next to a plain BM25
 * baseline computed in the same run, by set and by halves).
 *
 *   npx tsx bench/apibench.bench.ts <path to a ShishirPatil/gorilla checkout>
 *   GORILLA_CHECKOUT=<path> npm run bench apibench    (skipped when no path is given)
 */
import { apibenchSets } from "./apibench-set.js";
import { reportRetrieval } from "./retrieval-report.js";

const checkout = process.argv[2] ?? process.env.GORILLA_CHECKOUT;
if (checkout === undefined) {
  console.log("skipped: give the path of a ShishirPatil/gorilla checkout (argument or GORILLA_CHECKOUT)");
  process.exit(0);
}
reportRetrieval(apibenchSets(checkout));
