/** What each public-set benchmark does: find the checkout (argument or environment variable), rebuild its sets, report them. */
import type { RetrievalSet } from "./retrieval-set.js";
import { reportRetrieval } from "./retrieval-report.js";

export function runRetrievalBench(variable: string, repository: string, sets: (checkout: string) => RetrievalSet[]): void {
  const checkout = process.argv[2] ?? process.env[variable];
  if (checkout === undefined) {
    console.log(`skipped: give the path of a ${repository} checkout (argument or ${variable})`);
    return;
  }
  const loaded = sets(checkout);
  for (const source of new Set(loaded.map((set) => set.source))) console.log(`From ${source}.\n`);
  reportRetrieval(loaded);
}
