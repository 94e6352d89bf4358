/**
 * Each Lambda function's bundle, built exactly as the stack builds it (same esbuild options,
 * AWS SDK external): its minified size, and its cold import time in a fresh `node` process
 * (the module graph the runtime loads before the first request, AWS SDK from node_modules as on
 * Lambda), against a bare `node -e ""` measured in the same run, and against importing only the
 * AWS SDK packages the bundle imports (what the runtime would load for any function using them).
 *
 *   npx tsx bench/lambda.bench.ts      (or: npm run bench lambda)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "fflate";
import { build } from "esbuild";
import { LAMBDA_BUNDLE, PROJECT_ROOT, REGISTRY_FUNCTIONS, lambdaEntry } from "../infra/lambda-bundling.js";
import { percentile } from "./percentiles.js";

const RUNS = 9;
const SIZE_AIM_BYTES = 300 * 1024;
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
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, ...FUNCTION_ENV }, encoding: "utf8" });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node failed: ${result.stderr}`);
  return { wallMs, output: result.stdout.trim() };
}

try {
  const rows: string[] = [];
  const baseline: number[] = [];
  const files: Record<string, string> = {};
  const sdkImports: Record<string, string[]> = {};
  for (const name of REGISTRY_FUNCTIONS) {
    const outfile = join(outDir, name, "index.mjs");
    const result = await build({
      entryPoints: [lambdaEntry(name)],
      outfile,
      bundle: true,
      format: LAMBDA_BUNDLE.format,
      platform: LAMBDA_BUNDLE.platform,
      target: LAMBDA_BUNDLE.target,
      minify: LAMBDA_BUNDLE.minify,
      sourcemap: LAMBDA_BUNDLE.sourcemap,
      external: [...LAMBDA_BUNDLE.external],
      mainFields: [...LAMBDA_BUNDLE.mainFields],
      banner: { js: LAMBDA_BUNDLE.banner },
      logLevel: "silent",
      metafile: true,
    });
    files[name] = outfile;
    const externals = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path));
    sdkImports[name] = [...new Set(externals.filter((path) => path.startsWith("@aws-sdk/")))].sort();
  }

  const samples: Record<string, { importMs: number[]; wallMs: number[]; sdkMs: number[]; ownMs: number[] }> = {};
  for (const name of REGISTRY_FUNCTIONS) samples[name] = { importMs: [], wallMs: [], sdkMs: [], ownMs: [] };
  // Interleave the runs so a burst of load on the machine hits every row alike.
  for (let run = 0; run < RUNS; run++) {
    baseline.push(runNode("").wallMs);
    for (const name of REGISTRY_FUNCTIONS) {
      const url = pathToFileURL(files[name]!).href;
      const { wallMs, output } = runNode(`const t = performance.now(); const m = await import(${JSON.stringify(url)}); if (typeof m.handler !== "function") throw new Error("no handler"); console.log(performance.now() - t);`);
      samples[name]!.importMs.push(Number(output));
      samples[name]!.wallMs.push(wallMs);
      // The same imports with the AWS SDK loaded first: what the SDK costs, and what our bundle adds on top.
      const sdkFirst = sdkImports[name]!.map((path) => `await import(${JSON.stringify(path)});`).join(" ");
      const [sdkMs, ownMs] = runNode(`const t0 = performance.now(); ${sdkFirst} const t1 = performance.now(); await import(${JSON.stringify(url)}); console.log(t1 - t0, performance.now() - t1);`).output.split(" ").map(Number);
      samples[name]!.sdkMs.push(sdkMs!);
      samples[name]!.ownMs.push(ownMs!);
    }
  }

  const base50 = percentile(baseline, 0.5);
  console.log(`Node ${process.version}, ${RUNS} fresh processes per row; baseline \`node -e ""\`: p50 ${base50.toFixed(0)} ms, p99 ${percentile(baseline, 0.99).toFixed(0)} ms.\n`);
  console.log("| function | bundle (minified) | gzip | cold import p50 | p99 | AWS SDK alone p50 | bundle after SDK p50 | process p50 | ratio vs `node -e \"\"` | aim (300 KB / 150 ms) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const name of REGISTRY_FUNCTIONS) {
    const size = statSync(files[name]!).size;
    const gz = gzipSync(readFileSync(files[name]!)).byteLength;
    const { importMs, wallMs, sdkMs, ownMs } = samples[name]!;
    const import50 = percentile(importMs, 0.5);
    const verdict = (met: boolean) => (met ? "met" : "missed");
    const aims = `size ${verdict(size < SIZE_AIM_BYTES)}, import ${verdict(import50 < IMPORT_AIM_MS)} (bundle alone ${verdict(percentile(ownMs, 0.5) < IMPORT_AIM_MS)})`;
    rows.push(
      `| ${name} | ${(size / 1024).toFixed(1)} KB | ${(gz / 1024).toFixed(1)} KB | ${import50.toFixed(0)} ms | ${percentile(importMs, 0.99).toFixed(0)} ms | ${percentile(sdkMs, 0.5).toFixed(0)} ms | ${percentile(ownMs, 0.5).toFixed(0)} ms | ${percentile(wallMs, 0.5).toFixed(0)} ms | ${(percentile(wallMs, 0.5) / base50).toFixed(2)}× | ${aims} |`,
    );
  }
  console.log(rows.join("\n"));
  for (const name of REGISTRY_FUNCTIONS) console.log(`\n${name} imports ${sdkImports[name]!.join(", ")} from the runtime.`);
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
