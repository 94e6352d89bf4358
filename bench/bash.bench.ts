/**
 * Bash permission decisions on the mixed corpus (test/sdk/builtin/corpus: unsafe + safe commands),
 * through the real PermissionEngine and Bash tool, against a bare tree-sitter-bash parse of the same
 * command measured in this run. Each decision parses and analyses its command afresh (the corpus is
 * larger than the tool's analysis cache). The parser's one-time WASM load is reported separately.
 * Two extra rows decide git commands and recursive searches with this repository as the project
 * (its git config read, its tree walked for secrets). Every row takes its turn in each of PASSES
 * rounds (bench/interleaved.ts); its ratio is the median of the rounds' p50 ratios to the bare
 * parse, with their range.
 *
 *   npx tsx bench/bash.bench.ts      (or: npm run bench bash)
 */
import { performance } from "node:perf_hooks";
import { cpus } from "node:os";
import { Bash } from "../sdk/src/builtin/bash/bash-tool.js";
import { loadBashParser } from "../sdk/src/builtin/shell/bash-parser.js";
import { PermissionEngine } from "../sdk/src/permission/permission-engine.js";
import { loadCorpus } from "../test/sdk/builtin/support.js";
import { allSamples, formatRatio, inRounds, roundRatios, roundsOr } from "./interleaved.js";
import { p50p99 } from "./percentiles.js";

const PASSES = roundsOr(8);
const commands = [...loadCorpus("bash-unsafe.txt"), ...loadCorpus("bash-safe.txt")];

const loadStart = performance.now();
const parser = await loadBashParser();
const loadMs = performance.now() - loadStart;

const bash = new Bash({ cwd: process.cwd() });
const engine = new PermissionEngine();
const decide = (command: string) => engine.checkPermission(bash, { command });
// This repository as the project: its .git/config (and includes) read for git, its tree walked for searches.
// Distinct commands, more than the analysis cache holds, so each decision does the work afresh;
// 2 passes over them in all, a slice in each round.
const variants = (make: (n: number) => string) => Array.from({ length: 1500 }, (_, n) => make(n));
const sliced = (all: string[]) => (round: number) => {
  const size = Math.ceil((2 * all.length) / PASSES);
  return Array.from({ length: size }, (_, k) => all[(round * size + k) % all.length]!);
};

interface Case {
  label: string;
  run: (command: string) => unknown;
  commands: (round: number) => string[];
}
const cases = {
  baseline: { label: "bare tree-sitter parse (baseline)", run: (command) => parser.parse(command)?.delete(), commands: () => commands },
  ownCheck: {
    label: "Bash.checkPermissions (parse + analysis)",
    run: (command) => bash.checkPermissions({ command }, engine.context),
    commands: () => commands,
  },
  decisions: { label: "PermissionEngine.checkPermission (full decision)", run: decide, commands: () => commands },
  git: {
    label: "git status/log/diff in this repository (config checked)",
    run: decide,
    commands: sliced(variants((n) => [`git status -- src${n}`, `git log -p -${n}`, `git diff --stat HEAD~${n}`][n % 3]!)),
  },
  search: {
    label: "grep -r/rg/git grep over this repository (tree walked)",
    run: decide,
    commands: sliced(variants((n) => [`grep -rn TODO${n} .`, `rg TODO${n}`, `git grep TODO${n}`][n % 3]!)),
  },
} satisfies Record<string, Case>;
type Name = keyof typeof cases;

/** One round of a case: each of its commands once, each timed (ms); and how long the round took. */
async function measure({ run, commands: of }: Case, round: number): Promise<{ samples: number[]; seconds: number }> {
  const samples: number[] = [];
  const start = performance.now();
  for (const command of of(round)) {
    const before = performance.now();
    await run(command);
    samples.push(performance.now() - before);
  }
  return { samples, seconds: (performance.now() - start) / 1000 };
}

// Warm-up.
for (const name of ["baseline", "ownCheck", "decisions"] as const) for (const command of commands) await cases[name].run(command);
const names = Object.keys(cases) as Name[];
const rounds = await inRounds(names, PASSES, (name, round) => measure(cases[name], round));

const samplesOf = (name: Name) => rounds[name].map((result) => result.samples);
const row = (name: Name) => {
  const { p50, p99 } = p50p99(allSamples(samplesOf(name)));
  const perSecond = allSamples(samplesOf(name)).length / rounds[name].reduce((sum, result) => sum + result.seconds, 0);
  const ratio = name === "baseline" ? "1.0×" : formatRatio(roundRatios(samplesOf(name), samplesOf("baseline")), 1);
  return (
    `| ${cases[name].label} | ${(p50 * 1000).toFixed(0)} µs | ${(p99 * 1000).toFixed(0)} ` +
    `µs | ${Math.round(perSecond).toLocaleString("en")} | ${ratio} |`
  );
};

console.log(
  `Bash permission decisions: ${commands.length} corpus commands × ${PASSES} ` +
    `interleaved passes, Node ${process.version}, ${cpus().length} cores`,
);
console.log(`tree-sitter-bash WASM load (once per process): ${loadMs.toFixed(1)} ms\n`);
console.log("| measure | p50 | p99 | per second | p50 vs bare parse |");
console.log("|---|---|---|---|---|");
for (const name of names) console.log(row(name));
