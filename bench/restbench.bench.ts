/**
 * Tool retrieval on RestBench's requests over the TMDB and Spotify APIs (each needs the two to
 * four operations of its solution path), rebuilt from a checkout of its repository by
 * `restbench-set.ts`, reported like APIBench (`retrieval-report.ts`).
 *
 *   npx tsx bench/restbench.bench.ts <path to a Yifan-Song793/RestGPT checkout>
 *   RESTBENCH_CHECKOUT=<path> npm run bench restbench    (skipped when no path is given)
 */
import { restbenchSets } from "./restbench-set.js";
import { runRetrievalBench } from "./retrieval-bench.js";

runRetrievalBench("RESTBENCH_CHECKOUT", "Yifan-Song793/RestGPT", restbenchSets);
