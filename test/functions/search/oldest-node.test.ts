// The search index's SQLite on the oldest Node a nodejs24.x runtime can run (24.0.0), whose
// node:sqlite has neither serialize nor deserialize: bytes go through files in the temporary
// folder (functions/search/sqlite-driver.ts). The checks are bundled as the Lambda functions are,
// so better-sqlite3 is out of reach there too; the same checks pass here with this Node's driver
// (sqlite-driver.test.ts), and the deployed bundles run on this Node in lambda-bundle.test.ts.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAMBDA_BUNDLE } from "../../../infra/lambda-bundling.js";
import { lambdaRuntimeNode } from "../../support/lambda-node.js";

let workDir: string;
let observed: Record<string, unknown>;

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "agent-tools-oldest-node-"));
  const script = join(workDir, "checks.mjs");
  await build({
    entryPoints: [new URL("./support/oldest-node-checks.ts", import.meta.url).pathname],
    outfile: script,
    bundle: true,
    format: LAMBDA_BUNDLE.format,
    platform: LAMBDA_BUNDLE.platform,
    target: LAMBDA_BUNDLE.target,
    banner: { js: LAMBDA_BUNDLE.banner },
    logLevel: "silent",
  });
  const { stdout } = await promisify(execFile)(lambdaRuntimeNode("oldest"), [script], {
    cwd: workDir,
    env: { PATH: "/usr/bin:/bin", TMPDIR: workDir },
    timeout: 60_000,
  });
  observed = JSON.parse(stdout) as Record<string, unknown>;
}, 300_000);
afterAll(async () => {
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe("the search index's SQLite on Node 24.0.0", () => {
  it("runs on that Node, taking node:sqlite through files", () => {
    expect(observed.node).toBe("v24.0.0");
    expect(observed.driver).toEqual({ name: "node:sqlite", loadsBytes: false });
  });

  it("serialises and opens again, FTS5 and nested rollbacks included, and a copy can be written and copied", () => {
    expect(observed.copied).toEqual({ rows: ["outer"], matches: [{ rowid: 7 }] });
    expect(observed.copyOfCopy).toEqual(["outer", "written to the copy"]);
  });

  it("keeps a file per opened copy while open and leaves none behind once closed", () => {
    expect(observed.whileOpen).toBe(2);
    expect(observed.leftOver).toBe(0);
  });

  it("refuses bytes that are no database", () => {
    expect(observed.garbage).toMatch(/^refused: /);
  });

  it("searches a snapshot it stored, and its start-up self-check finds nothing wrong", () => {
    expect(observed.hits).toEqual(["quokka-counter"]);
    expect(observed.runtimeProblem).toBeNull();
  });
});
