/**
 * Tool retrieval on a second public set: MetaTool's ToolE single-tool queries, rebuilt from a
 * checkout of its repository by `metatool-set.ts`, reported like APIBench (`retrieval-report.ts`).
 *
 *   npx tsx bench/metatool.bench.ts <path to a HowieHwong/MetaTool checkout>
 *   METATOOL_CHECKOUT=<path> npm run bench metatool    (skipped when no path is given)
 */
import { metatoolSet } from "./metatool-set.js";
import { reportRetrieval } from "./retrieval-report.js";

const checkout = process.argv[2] ?? process.env.METATOOL_CHECKOUT;
if (checkout === undefined) {
  console.log("skipped: give the path of a HowieHwong/MetaTool checkout (argument or METATOOL_CHECKOUT)");
  process.exit(0);
}
reportRetrieval([metatoolSet(checkout)]);
