/**
 * Runs every benchmark in its own process, one after another, so they never compete for the cores.
 *
 *   npm run bench                   every benchmark
 *   npm run bench -- registry sdk   the runs whose name contains one of the words
 *   npm run bench:page              every benchmark, then writes docs/benchmarks.md from this run
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { benchRuns } from "./bench-runs.js";
import { blocksOf, PAGE_PATH, renderPage, TEMPLATE_PATH } from "./benchmarks-page.js";
import { runBench, type BenchResult } from "./run-bench.js";

const args = process.argv.slice(2);
const writePage = args.includes("--page");
const only = args.filter((arg) => arg !== "--page");
if (writePage && only.length > 0) {
  console.error("--page writes the whole page from one run of every benchmark: give no names with it.");
  process.exit(2);
}

const started = new Date();
const results: BenchResult[] = [];
for (const run of benchRuns().filter((candidate) => only.length === 0 || only.some((word) => candidate.name.includes(word)))) {
  console.log(`\n## ${run.name}\n`);
  results.push(await runBench(run));
}

const failed = results.filter((result) => result.status !== 0).map((result) => result.run.name);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(", ")}${writePage ? " (docs/benchmarks.md left as it was)" : ""}`);
  process.exit(1);
}
if (writePage) {
  const template = readFileSync(TEMPLATE_PATH, "utf8");
  writeFileSync(PAGE_PATH, renderPage(template, blocksOf(results, started)));
  console.log(`\nWrote ${fileURLToPath(PAGE_PATH)}`);
}
