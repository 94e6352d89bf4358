/**
 * docs/benchmarks.md is written by one command, `npm run bench:page`, from one run of every
 * benchmark: the prose is bench/benchmarks-page.md, where `{{machine}}` becomes what the run was
 * measured on and `{{bench:<name>}}` what that benchmark printed. Each generated block sits between
 * markers, so a test can check that the page is the template filled in, and nothing else.
 */
import { arch, cpus, release, totalmem } from "node:os";
import { readFileSync } from "node:fs";
import { LAMBDA_RUNTIME_NODE_PATH } from "../test/support/lambda-node.js";
import type { BenchResult } from "./run-bench.js";

export const TEMPLATE_PATH = new URL("./benchmarks-page.md", import.meta.url);
export const PAGE_PATH = new URL("../docs/benchmarks.md", import.meta.url);

const HEADER = "<!-- Written by `npm run bench:page` from bench/benchmarks-page.md: edit that file, not this one. -->\n";
const PLACEHOLDER = /\{\{(machine|bench:[a-z0-9-]+)\}\}/g;

/** The generated text of each block, by placeholder name (`machine`, `bench:registry`, …). */
export type PageBlocks = Record<string, string>;

/** The placeholder names of the template, in order. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

export function renderPage(template: string, blocks: PageBlocks): string {
  return (
    HEADER +
    template.replace(PLACEHOLDER, (_, name: string) => {
      const block = blocks[name];
      if (block === undefined) throw new Error(`No generated block for {{${name}}} in bench/benchmarks-page.md`);
      return `<!-- ${name} -->\n${block}\n<!-- /${name} -->`;
    })
  );
}

/** The generated blocks of a written page (what `renderPage` put between the markers). */
export function pageBlocks(page: string): PageBlocks {
  const blocks: PageBlocks = {};
  for (const match of page.matchAll(/<!-- (machine|bench:[a-z0-9-]+) -->\n([\s\S]*?)\n<!-- \/\1 -->/g)) blocks[match[1]!] = match[2]!;
  return blocks;
}

/** The blocks of one run: the machine and the whole run's span, then each benchmark's output. */
export function blocksOf(results: BenchResult[], started: Date): PageBlocks {
  const minutes = results.reduce((sum, result) => sum + result.seconds, 0) / 60;
  const loads = results.flatMap((result) => result.load);
  const blocks: PageBlocks = {
    machine: [
      `Measured on ${started.toISOString().slice(0, 10)} in one run of \`npm run ` +
        `bench:page\` (${minutes.toFixed(0)} minutes, benchmarks one after another):`,
      `${cpus().length} × ${cpus()[0]?.model.trim() ?? "unknown CPU"} (${arch()}), ` +
        `${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${distribution()} (Linux ${release()}), Node ${process.version};`,
      `one-minute load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during the run.`,
    ].join("\n"),
  };
  for (const result of results) {
    const command = commandOf(result);
    blocks[`bench:${result.run.name}`] = [
      `\`${command}\`${result.run.node === "lambda" ? ` (Node ${result.nodeVersion}, as Lambda runs it)` : ""}: ` +
        `${result.seconds.toFixed(0)} s, load average ` +
        `${result.load[0].toFixed(1)} at the start and ${result.load[1].toFixed(1)} at the end.`,
      "",
      result.output,
    ].join("\n");
  }
  return blocks;
}

/** The command that repeats this run alone. */
function commandOf({ run }: BenchResult): string {
  const script = `bench/${run.file}`;
  if (run.node === "project" && run.nodeFlags.length === 0) return `npx tsx ${script}`;
  const node = run.node === "lambda" ? LAMBDA_RUNTIME_NODE_PATH : "node";
  return `${node} ${[...run.nodeFlags, "--import tsx"].join(" ")} ${script}`;
}

function distribution(): string {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1] ?? "Linux";
  } catch {
    return "Linux";
  }
}
