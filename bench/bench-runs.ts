/**
 * Every benchmark run that `npm run bench` makes, in order: each `bench/*.bench.ts` once on the
 * project's Node, plus the runs that need another Node or flags. A run's `name` is its section in
 * docs/benchmarks.md (bench/benchmarks-page.md holds the prose around it).
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface BenchRun {
  /** Section name in the page: the file name without `.bench.ts`, plus a suffix for a variant. */
  name: string;
  file: string;
  /** `lambda`: the Node of the Lambda runtime the stack deploys (test/lambda-runtime/). */
  node: "project" | "lambda";
  nodeFlags: string[];
}

export const BENCH_DIR = fileURLToPath(new URL(".", import.meta.url));

/** Benchmarks that need more than a plain run: GC control, or a second run on the Lambda runtime's Node. */
const VARIANTS: Record<string, Omit<BenchRun, "file">[]> = {
  "search-index.bench.ts": [
    { name: "search-index", node: "project", nodeFlags: ["--expose-gc"] },
    { name: "search-index-lambda-node", node: "lambda", nodeFlags: ["--expose-gc"] },
  ],
};

export function benchRuns(): BenchRun[] {
  return readdirSync(BENCH_DIR)
    .filter((file) => file.endsWith(".bench.ts"))
    .sort()
    .flatMap((file) =>
      (VARIANTS[file] ?? [{ name: file.replace(/\.bench\.ts$/, ""), node: "project", nodeFlags: [] }]).map((run) => ({ ...run, file })),
    );
}
