/**
 * The search index engine against SQLite FTS5 with porter over the same documents, at 10,000 to
 * 100,000 tools: each builds its index from the documents in memory (the no-snapshot rebuild,
 * storage reads aside: bench/search.bench.ts reads them from the emulators) and writes its file,
 * in a fresh process (what a cold instance without a snapshot does), the two engines' builds
 * alternating `RUNS` times, wall and CPU seconds as median (min–max).
 * Then each file is opened by a fresh Node process, a cold instance: open, first search (ours:
 * the first labelled query; FTS5: the same words OR'ed, ranked by its bm25), then more searches,
 * with its memory after the first search and after them. The two engines' cold instances
 * alternate, `RUNS` of each, reported as median (min–max); the ratio is of medians.
 *
 * Ours opens its snapshot file in place (docs/search.md, "Cold start"): what a search instance
 * does once it has streamed the snapshot from S3 into /tmp. Storage round trips come on top for
 * both (S3 GetObject of the file; DynamoDB GetItem for the revision log).
 *
 *   node --expose-gc --import tsx bench/search-index.bench.ts   (or: npm run bench search-index)
 *   SEARCH_BENCH_SIZES=10000,50000 node --expose-gc --import tsx bench/search-index.bench.ts
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sqliteDriverName } from "../functions/search/sqlite-driver.js";
import { ToolSearchIndex } from "../functions/search/tool-search-index.js";
import { LABELLED_QUERIES, scaledCatalog } from "../test/functions/search/relevance-catalog.js";
import { Fts5Porter } from "./fts5-porter.js";
import { percentile } from "./percentiles.js";
import { toolText } from "./retrieval-report.js";

const RUNS = 3;
const SEARCHES = 300;
const INSTANCE_FLAG = "--cold-instance";
const BUILD_FLAG = "--build";

type Engine = "ours" | "fts5";

interface BuildRun {
  wallS: number;
  cpuS: number;
}

interface InstanceRun {
  coldMs: number;
  openMs: number;
  searchP50: number;
  rssFirstMiB: number;
  rssMiB: number;
}

if (process.argv[2] === INSTANCE_FLAG) {
  process.stdout.write(JSON.stringify(coldInstance(process.argv[3] as Engine, process.argv[4]!)));
} else if (process.argv[2] === BUILD_FLAG) {
  process.stdout.write(JSON.stringify(build(process.argv[3] as Engine, Number(process.argv[4]), process.argv[5]!)));
} else {
  const sizes = (process.env.SEARCH_BENCH_SIZES ?? "10000,50000,100000").split(",").map(Number);
  const dir = mkdtempSync(join(tmpdir(), "agent-tools-search-index-bench-"));
  try {
    console.log(
      `Driver ${sqliteDriverName()} on Node ${process.version}; ${RUNS} builds and ${RUNS} cold instances of each engine per size, ` +
        "alternating.\n",
    );
    console.log(
      "| tools | build s, ours / FTS5 | file MiB, ours / FTS5 | cold: open + " +
        "first search ms, ours | FTS5 | ours / FTS5 | search p50 ms, ours / FTS5 | RSS MiB " +
        "after the first search, ours / FTS5 | RSS MiB after 300 searches, ours / FTS5 |",
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const size of sizes) console.log(row(size, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function row(size: number, dir: string): string {
  const files: Record<Engine, string> = { ours: join(dir, `ours-${size}.sqlite`), fts5: join(dir, `fts5-${size}.sqlite`) };
  const builds: Record<Engine, BuildRun[]> = { ours: [], fts5: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const engine of run % 2 === 0 ? (["ours", "fts5"] as const) : (["fts5", "ours"] as const)) {
      rmSync(files[engine], { force: true });
      builds[engine].push(child<BuildRun>([BUILD_FLAG, engine, String(size), files[engine]]));
    }
  }
  const built = (engine: Engine) => {
    const range = (field: keyof BuildRun) => {
      const seconds = builds[engine].map((run) => run[field]);
      return `${percentile(seconds, 0.5).toFixed(1)} (${Math.min(...seconds).toFixed(1)}–${Math.max(...seconds).toFixed(1)})`;
    };
    return `${range("wallS")}, CPU ${range("cpuS")}`;
  };
  const runs: Record<Engine, InstanceRun[]> = { ours: [], fts5: [] };
  for (let run = 0; run < RUNS; run++) {
    for (const engine of run % 2 === 0 ? (["ours", "fts5"] as const) : (["fts5", "ours"] as const)) {
      runs[engine].push(child<InstanceRun>([INSTANCE_FLAG, engine, files[engine]]));
    }
  }
  const median = (engine: Engine, field: keyof InstanceRun) =>
    percentile(
      runs[engine].map((run) => run[field]),
      0.5,
    );
  const spread = (engine: Engine) => {
    const cold = runs[engine].map((run) => run.coldMs);
    return `${median(engine, "coldMs").toFixed(0)} (${Math.min(...cold).toFixed(0)}–${Math.max(...cold).toFixed(0)})`;
  };
  const mib = (file: string) => (statSync(file).size / 2 ** 20).toFixed(1);
  const pair = (field: keyof InstanceRun, digits: number) =>
    `${median("ours", field).toFixed(digits)} / ${median("fts5", field).toFixed(digits)}`;
  return (
    `| ${size} | ${built("ours")} / ${built("fts5")} | ${mib(files.ours)} / ${mib(files.fts5)} | ` +
    `${spread("ours")} | ${spread("fts5")} | ${(median("ours", "coldMs") / median("fts5", "coldMs")).toFixed(2)}× ` +
    `| ${pair("searchP50", 2)} | ${pair("rssFirstMiB", 0)} | ${pair("rssMiB", 0)} |`
  );
}

/** What a fresh process of this benchmark printed, run with `args`. */
function child<Result>(args: string[]): Result {
  return JSON.parse(
    execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    }),
  ) as Result;
}

/** A fresh process's build of `size` tools into `file`, the documents made before the clock starts. */
function build(engine: Engine, size: number, file: string): BuildRun {
  const tools = scaledCatalog(size).map((tool) => ({ ...tool, version: "1.0.0" }));
  const start = performance.now();
  const cpu = process.cpuUsage();
  if (engine === "ours") {
    const ours = ToolSearchIndex.build(tools, 1);
    writeFileSync(file, ours.serialize());
    ours.close();
  } else {
    Fts5Porter.build(
      tools.map((tool) => [tool.tool_id, toolText(tool)] as const),
      file,
    ).close();
  }
  const used = process.cpuUsage(cpu);
  return { wallS: (performance.now() - start) / 1000, cpuS: (used.user + used.system) / 1e6 };
}

/** A fresh process's life as a search instance: its file to first answer, then searches. */
function coldInstance(engine: Engine, file: string): InstanceRun {
  const queries = LABELLED_QUERIES.map(([q]) => q);
  const start = performance.now();
  // Ours is left open: closing it would remove the file (it owns it), which the next run opens.
  const search =
    engine === "ours"
      ? (
          (index) => (q: string) =>
            index.search({ q, limit: 10 }).length
        )(ToolSearchIndex.openFile(file))
      : (
          (index) => (q: string) =>
            index.search(q, 10).length
        )(Fts5Porter.open(file));
  const opened = performance.now();
  search(queries[0]!);
  const coldMs = performance.now() - start;
  const rssFirstMiB = process.memoryUsage().rss / 2 ** 20;
  const latencies: number[] = [];
  for (let i = 0; i < SEARCHES; i++) {
    const searchStart = performance.now();
    search(queries[i % queries.length]!);
    latencies.push(performance.now() - searchStart);
  }
  return {
    coldMs,
    openMs: opened - start,
    searchP50: percentile(latencies, 0.5),
    rssFirstMiB,
    rssMiB: process.memoryUsage().rss / 2 ** 20,
  };
}
