/**
 * Tool retrieval on MetaTool's ToolE queries, single-tool and multi-tool, rebuilt from a checkout
 * of its repository by `metatool-set.ts`, reported like APIBench (`retrieval-report.ts`).
 *
 *   npx tsx bench/metatool.bench.ts <path to a HowieHwong/MetaTool checkout>
 *   METATOOL_CHECKOUT=<path> npm run bench metatool    (skipped when no path is given)
 */
import { metatoolSets } from "./metatool-set.js";
import { runRetrievalBench } from "./retrieval-bench.js";

runRetrievalBench("METATOOL_CHECKOUT", "HowieHwong/MetaTool", metatoolSets);
