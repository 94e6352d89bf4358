/**
 * Tool retrieval on Seal-Tools' requests (most need three or four of its 4,076 APIs), rebuilt
 * from a checkout of its repository by `seal-tools-set.ts`, reported like APIBench
 * (`retrieval-report.ts`).
 *
 *   npx tsx bench/seal-tools.bench.ts <path to a fairyshine/Seal-Tools checkout>
 *   SEAL_TOOLS_CHECKOUT=<path> npm run bench seal-tools    (skipped when no path is given)
 */
import { runRetrievalBench } from "./retrieval-bench.js";
import { sealToolsSet } from "./seal-tools-set.js";

runRetrievalBench("SEAL_TOOLS_CHECKOUT", "fairyshine/Seal-Tools", (checkout) => [sealToolsSet(checkout)]);
