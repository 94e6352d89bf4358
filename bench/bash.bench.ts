/**
 * Bash permission decisions on the mixed corpus (test/sdk/builtin/corpus: unsafe + safe commands),
 * through the real PermissionEngine and Bash tool, against a bare tree-sitter-bash parse of the same
 * command measured in this run. Each decision parses and analyses its command afresh (the corpus is
 * larger than the tool's analysis cache). The parser's one-time WASM load is reported separately.
 * Two extra rows decide git commands and recursive searches with this repository as the project
 * (its git config read, its tree walked for secrets).
 *
 *   npx tsx bench/bash.bench.ts      (or: npm run bench bash)
 */
import { performance } from "node:perf_hooks";
import { cpus } from "node:os";
import { Bash } from "../sdk/src/builtin/bash/bash-tool.js";
import { loadBashParser } from "../sdk/src/builtin/shell/bash-parser.js";
import { PermissionEngine } from "../sdk/src/permission/permission-engine.js";
import { loadCorpus } from "../test/sdk/builtin/support.js";
import { p50p99 } from "./percentiles.js";

const PASSES = 8;
const commands = [...loadCorpus("bash-unsafe.txt"), ...loadCorpus("bash-safe.txt")];

const loadStart = performance.now();
const parser = await loadBashParser();
const loadMs = performance.now() - loadStart;

async function measure(
  run: (command: string) => unknown,
  measured = commands,
  passes = PASSES,
): Promise<{ p50: number; p99: number; perSecond: number }> {
  for (const command of measured) await run(command); // warm-up
  const samples: number[] = [];
  const start = performance.now();
  for (let pass = 0; pass < passes; pass += 1) {
    for (const command of measured) {
      const before = performance.now();
      await run(command);
      samples.push(performance.now() - before);
    }
  }
  const seconds = (performance.now() - start) / 1000;
  return { ...p50p99(samples), perSecond: samples.length / seconds };
}

const baseline = await measure((command) => parser.parse(command)?.delete());
const bash = new Bash({ cwd: process.cwd() });
const engine = new PermissionEngine();
const decisions = await measure((command) => engine.checkPermission(bash, { command }));
const ownCheck = await measure(async (command) => bash.checkPermissions({ command }, engine.context));
// This repository as the project: its .git/config (and includes) read for git, its tree walked for searches.
// Distinct commands, more than the analysis cache holds, so each decision does the work afresh.
const variants = (make: (n: number) => string) => Array.from({ length: 1500 }, (_, n) => make(n));
const gitInRepository = await measure(
  (command) => engine.checkPermission(bash, { command }),
  variants((n) => [`git status -- src${n}`, `git log -p -${n}`, `git diff --stat HEAD~${n}`][n % 3]!),
  2,
);
const searchOverRepository = await measure(
  (command) => engine.checkPermission(bash, { command }),
  variants((n) => [`grep -rn TODO${n} .`, `rg TODO${n}`, `git grep TODO${n}`][n % 3]!),
  2,
);

const row = (name: string, result: { p50: number; p99: number; perSecond: number }) =>
  `| ${name} | ${(result.p50 * 1000).toFixed(0)} µs | ${(result.p99 * 1000).toFixed(0)} µs | ${Math.round(result.perSecond).toLocaleString("en")} | ${(result.p50 / baseline.p50).toFixed(1)}× |`;

console.log(
  `Bash permission decisions: ${commands.length} corpus commands × ${PASSES} passes, Node ${process.version}, ${cpus().length} cores`,
);
console.log(`tree-sitter-bash WASM load (once per process): ${loadMs.toFixed(1)} ms\n`);
console.log("| measure | p50 | p99 | per second | p50 vs bare parse |");
console.log("|---|---|---|---|---|");
console.log(row("bare tree-sitter parse (baseline)", baseline));
console.log(row("Bash.checkPermissions (parse + analysis)", ownCheck));
console.log(row("PermissionEngine.checkPermission (full decision)", decisions));
console.log(row("git status/log/diff in this repository (config checked)", gitInRepository));
console.log(row("grep -r/rg/git grep over this repository (tree walked)", searchOverRepository));
