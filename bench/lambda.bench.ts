/**
 * Each Lambda function's bundle, built exactly as the stack builds it (same esbuild options, AWS
 * SDK bundled): its minified size, and its cold import time in a fresh `node` process (the module
 * graph the runtime loads before the first request), against a bare `node -e ""` measured in the
 * same run, and against the same entry built with the AWS SDK left external (loaded from
 * node_modules, as the runtime's copy would be), which is how the stack bundled before.
 *
 *   npx tsx bench/lambda.bench.ts      (or: npm run bench lambda)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "fflate";
import { build } from "esbuild";
import { LAMBDA_BUNDLE, PROJECT_ROOT, lambdaBuildOptions } from "../infra/lambda-bundling.js";
import { REGISTRY_FUNCTIONS as FUNCTIONS } from "../infra/registry-functions.js";
import { percentile } from "./percentiles.js";

const RUNS = 9;
const IMPORT_AIM_MS = 150;

/** What the stack's environment gives the functions; nothing here touches the network at import. */
const FUNCTION_ENV = {
  AWS_REGION: "eu-west-1",
  AWS_LAMBDA_FUNCTION_NAME: "bench",
  TABLE_NAME: "bench-table",
  BUCKET_NAME: "bench-bucket",
  ARCHIVE_DELIVERY: "redirect",
  TOKEN_SECRET_ARN: "arn:aws:secretsmanager:eu-west-1:123456789012:secret:bench",
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
};

// Inside the project, so bare `@aws-sdk/*` imports resolve from node_modules as the runtime's would.
const cacheDir = join(PROJECT_ROOT, "node_modules", ".cache");
mkdirSync(cacheDir, { recursive: true });
const outDir = mkdtempSync(join(cacheDir, "agent-tools-lambda-bench-"));

/** Wall time of one fresh `node` process running `script`, plus what the script printed. */
function runNode(script: string): { wallMs: number; output: string } {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    env: { ...process.env, ...FUNCTION_ENV },
    encoding: "utf8",
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node failed: ${result.stderr}`);
  return { wallMs, output: result.stdout.trim() };
}

const REGISTRY_FUNCTIONS = FUNCTIONS.map((definition) => definition.name);
const BUILDS = { bundled: LAMBDA_BUNDLE.external, "sdk external": ["@aws-sdk/*"] } as const;
type BuildName = keyof typeof BUILDS;

async function buildEntry(name: string, build_: BuildName): Promise<{ file: string; sdkImports: string[] }> {
  const outfile = join(outDir, build_.replace(" ", "-"), name, "index.mjs");
  const result = await build({ ...lambdaBuildOptions(name, outfile, BUILDS[build_]), metafile: true });
  const externals = Object.values(result.metafile.outputs).flatMap((output) =>
    output.imports.filter((entry) => entry.external).map((entry) => entry.path),
  );
  return { file: outfile, sdkImports: [...new Set(externals.filter((path) => path.startsWith("@aws-sdk/")))].sort() };
}

try {
  const baseline: number[] = [];
  const rows = REGISTRY_FUNCTIONS.flatMap((name) => (Object.keys(BUILDS) as BuildName[]).map((build_) => ({ name, build: build_ })));
  const files = new Map<string, { file: string; sdkImports: string[] }>();
  const key = (row: { name: string; build: BuildName }) => `${row.name}/${row.build}`;
  for (const row of rows) files.set(key(row), await buildEntry(row.name, row.build));

  const samples = new Map(rows.map((row) => [key(row), { importMs: [] as number[], wallMs: [] as number[] }]));
  // Interleave the runs so a burst of load on the machine hits every row alike.
  for (let run = 0; run < RUNS; run++) {
    baseline.push(runNode("").wallMs);
    for (const row of rows) {
      const url = pathToFileURL(files.get(key(row))!.file).href;
      const { wallMs, output } = runNode(
        `const t = performance.now(); const m = await import(${JSON.stringify(url)}); if (typeof ` +
          `m.handler !== "function") throw new Error("no handler"); console.log(performance.now() - t);`,
      );
      samples.get(key(row))!.importMs.push(Number(output));
      samples.get(key(row))!.wallMs.push(wallMs);
    }
  }

  const base50 = percentile(baseline, 0.5);
  console.log(
    `Node ${process.version}, ${RUNS} fresh processes per row; baseline \`node -e ` +
      `""\`: p50 ${base50.toFixed(0)} ms, p99 ${percentile(baseline, 0.99).toFixed(0)} ms.`,
  );
  console.log(
    "`bundled` is what the stack deploys; `sdk external` is the same entry " +
      "with `@aws-sdk/*` loaded from node_modules (the runtime's copy).\n",
  );
  console.log(
    '| function | build | bundle (minified) | gzip | cold import p50 | p99 | process p50 | ratio vs `node -e ""` | aim (import 150 ms) |',
  );
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    const { file } = files.get(key(row))!;
    const size = statSync(file).size;
    const gz = gzipSync(readFileSync(file)).byteLength;
    const { importMs, wallMs } = samples.get(key(row))!;
    const import50 = percentile(importMs, 0.5);
    const verdict = (met: boolean) => (met ? "met" : "missed");
    console.log(
      `| ${row.name} | ${row.build} | ${(size / 1024).toFixed(1)} KB | ${(gz / 1024).toFixed(1)} KB | ` +
        `${import50.toFixed(0)} ms | ${percentile(importMs, 0.99).toFixed(0)} ms | ${percentile(wallMs, 0.5).toFixed(0)} ` +
        `ms | ${(percentile(wallMs, 0.5) / base50).toFixed(2)}× | import ${verdict(import50 < IMPORT_AIM_MS)} |`,
    );
  }
  for (const name of REGISTRY_FUNCTIONS) {
    const external = files.get(`${name}/sdk external`)!.sdkImports;
    console.log(
      `\n${name} uses ${external.join(", ")}; bundled, it imports ` +
        `${files.get(`${name}/bundled`)!.sdkImports.length} AWS SDK packages from the runtime.`,
    );
  }
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
