/** Runs one benchmark in its own process, showing its output as it comes and keeping it for the page. */
import { execFileSync, spawn } from "node:child_process";
import { loadavg } from "node:os";
import { lambdaRuntimeNode } from "../test/support/lambda-node.js";
import { BENCH_DIR, type BenchRun } from "./bench-runs.js";

export interface BenchResult {
  run: BenchRun;
  /** What the benchmark printed on stdout (its tables and findings); stderr is shown, not kept. */
  output: string;
  status: number | null;
  seconds: number;
  /** One-minute load average when the run started and when it ended. */
  load: [number, number];
  nodeVersion: string;
}

export async function runBench(run: BenchRun, env: NodeJS.ProcessEnv = process.env): Promise<BenchResult> {
  const node = run.node === "lambda" ? lambdaRuntimeNode() : process.execPath;
  const started = performance.now();
  const loadBefore = loadavg()[0]!;
  const child = spawn(node, [...run.nodeFlags, "--openssl-legacy-provider", "--import", "tsx", `${BENCH_DIR}${run.file}`], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    process.stdout.write(chunk);
  });
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
  return {
    run,
    output: Buffer.concat(chunks).toString("utf8").trim(),
    status,
    seconds: (performance.now() - started) / 1000,
    load: [loadBefore, loadavg()[0]!],
    nodeVersion: run.node === "lambda" ? execFileSync(node, ["--version"], { encoding: "utf8" }).trim() : process.version,
  };
}
