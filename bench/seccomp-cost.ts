/**
 * What the system-call filter costs (docs/sandbox.md#system-call-filter): the same sandbox with
 * and without it, runs alternating so load on the shared machine hits both alike:
 *   a system call the filter lets through, which runs the whole program (getppid in a loop)
 *   a process start in the sandbox (`/bin/true`), which also loads the filter
 *   a Python start (`python3 -c pass`), a few hundred system calls of every kind
 * Part of bench/sandbox.bench.ts's block.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { seccompProgram } from "../sdk/src/sandbox/seccomp/index.js";
import { type FilteredSandbox, runFiltered } from "../test/sdk/support/filtered-sandbox.js";
import { percentile } from "./percentiles.js";

const ROUNDS = 15;
const LOOP_CALLS = 2_000_000;
const SIDES: Record<"without" | "with", FilteredSandbox["filter"]> = { without: "none", with: {} };

interface Measure {
  name: string;
  unit: string;
  /** One sample, in `unit`, of the measure run with this filter. */
  sample(filter: FilteredSandbox["filter"]): Promise<number>;
}

/** The filter's cost as Markdown table lines: median and spread (min to max) of each side, and their ratio. */
export async function seccompCost(): Promise<string[]> {
  const work = await mkdtemp(join(tmpdir(), "agent-tools-seccomp-bench-"));
  try {
    const loop = join(work, "syscall-loop");
    await promisify(execFile)("gcc", ["-O2", "-o", loop, new URL("./syscall-loop.c", import.meta.url).pathname]);
    const timed = async (filter: FilteredSandbox["filter"], argv: string[]) => {
      const start = performance.now();
      const run = await runFiltered({ readOnly: [work], filter }, argv);
      if (run.code !== 0) throw new Error(`${argv.join(" ")} failed in the sandbox: ${run.stderr}`);
      return { ms: performance.now() - start, stdout: run.stdout };
    };
    const measures: Measure[] = [
      {
        name: "a system call the filter lets through (getppid)",
        unit: "ns",
        sample: async (filter) => Number((await timed(filter, [loop, String(LOOP_CALLS)])).stdout),
      },
      { name: "sandboxed process start (`/bin/true`)", unit: "ms", sample: async (filter) => (await timed(filter, ["/bin/true"])).ms },
      {
        name: "sandboxed `python3 -c pass`",
        unit: "ms",
        sample: async (filter) => (await timed(filter, ["/usr/bin/python3", "-c", "pass"])).ms,
      },
    ];
    const lines = [
      `System-call filter: ${seccompProgram().length / 8} BPF instructions; median (min to max) of ${ROUNDS} alternating runs`,
      "",
      "| measure | sandbox without filter | with filter | ratio |",
      "|---|---:|---:|---:|",
    ];
    for (const measure of measures) {
      const samples: Record<keyof typeof SIDES, number[]> = { without: [], with: [] };
      await measure.sample(SIDES.with);
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of ["without", "with"] as const) samples[side].push(await measure.sample(SIDES[side]));
      }
      const shown = (values: number[]) =>
        `${percentile(values, 0.5).toFixed(2)} ${measure.unit} (${Math.min(...values).toFixed(2)} to ${Math.max(...values).toFixed(2)})`;
      const ratio = percentile(samples.with, 0.5) / percentile(samples.without, 0.5);
      lines.push(`| ${measure.name} | ${shown(samples.without)} | ${shown(samples.with)} | ${ratio.toFixed(2)} |`);
      console.error(`${measure.name}: ${shown(samples.without)} / ${shown(samples.with)}`);
    }
    return lines;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
