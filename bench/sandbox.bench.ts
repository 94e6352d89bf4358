/**
 * What the sandbox costs, sandboxed (bubblewrap, `sandbox: "required"`) against unsandboxed
 * (`sandbox: "off"`), both measured in this run on the same tools:
 *   worker start (first call of a freshly added Python tool: start, import, construct, call)
 *   add() and first call of a tool with requirements (its venv built then: venv + pip from a
 *   package index on 127.0.0.1, sandboxed through the filtering proxy), in alternating rounds
 *   warm Python call through the persistent worker (the sandbox must stay within 10% of p50)
 *   binary tool call (the gcc-compiled increment fixture): warm (a sandbox kept per tool) against the
 *     unsandboxed call, interleaved call by call in rounds (aim: sandboxed p50 within 1.5x), and the
 *     first call of a freshly added tool, which starts the sandbox, interleaved the same way
 *   Bash command (`true` through the Bash tool), also in a project of 2 000 files (the sandbox
 *     walks it for secret files to hide before every command)
 *   memory with 50 Python tools added (lazy workers: nothing runs until a call), then with all 50 started
 *   the system-call filter: the same sandbox with and without it (bench/seccomp-cost.ts)
 *
 *   npx tsx bench/sandbox.bench.ts      (or: npm run bench sandbox)
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { AgentTools } from "../sdk/src/agent-tools.js";
import { Bash } from "../sdk/src/builtin/bash/bash-tool.js";
import { sandboxSupport } from "../sdk/src/sandbox/sandbox-preflight.js";
import { compileIncrement, FIXTURE_TOOLS_DIR } from "../test/support/bundles.js";
import { startPackageIndex } from "../test/sdk/support/package-index.js";
import { writeTinyWheel } from "../test/sdk/support/tiny-wheel.js";
import { type Spread, spreadOf, timedCalls } from "./interleaved.js";
import { p50p99, percentile } from "./percentiles.js";
import { seccompCost } from "./seccomp-cost.js";

const WARM_CALLS = 5_000;
const STARTS = 20;
const BINARY_ROUNDS = 10;
const BINARY_CALLS_PER_ROUND = 100;
const BINARY_COLD_ROUNDS = 10;
/** Warm sandboxed binary call p50 against the unsandboxed one (docs/sandbox.md#binary-tools). */
const BINARY_WARM_AIM = 1.5;
const BASH_CALLS = 100;
/** Folders of ten files each in the project the second Bash row runs in. */
const PROJECT_FOLDERS = 200;
const MANY_TOOLS = 50;
const INSTALLS = 12;

const TOOL = `class AgentSpaceV1Tool:
    def __init__(self, tool_id, tool_data):
        pass
    def execute(self, input_data):
        return {"value": input_data["value"] + 1}
`;

type Mode = "off" | "required";
const MODES: Mode[] = ["off", "required"];

const support = sandboxSupport();
if (!support.available) {
  console.error(`The sandbox is unavailable here (${support.reason}); fix: ${support.fix}.`);
  process.exit(1);
}

const memory: Record<Mode, { lazy: { count: number; mib: number }; started: { count: number; mib: number } }> = {
  off: { lazy: { count: 0, mib: 0 }, started: { count: 0, mib: 0 } },
  required: { lazy: { count: 0, mib: 0 }, started: { count: 0, mib: 0 } },
};

const work = await mkdtemp(join(tmpdir(), "agent-tools-sandbox-bench-"));
try {
  await main();
} finally {
  await rm(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const toolDir = await writeTool("trivial");
  const binaryDir = join(work, "binary-increment");
  await mkdir(join(binaryDir, "code"), { recursive: true });
  await cp(join(FIXTURE_TOOLS_DIR, "binary-increment", "spec.json"), join(binaryDir, "spec.json"));
  await cp(await compileIncrement(), join(binaryDir, "code", "increment"));

  const rows: Row[] = [];
  const compare = async (name: string, unit: string, measure: (mode: Mode) => Promise<number>) => {
    const [off, sandboxed] = [await measure("off"), await measure("required")];
    rows.push({ name, off, sandboxed, unit });
    console.error(`${name}: ${off.toFixed(3)} / ${sandboxed.toFixed(3)} ${unit}`);
  };

  await compare("worker start + first call, p50", "ms", async (mode) => {
    const times: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      const tools = new AgentTools({ cacheDir: join(work, `start-${mode}`), sandbox: mode });
      await tools.add({ path: toolDir });
      const start = performance.now();
      await tools.executeToolById("trivial", { value: i });
      times.push(performance.now() - start);
      await tools.close();
    }
    return p50p99(times).p50;
  });

  const installs = await installRounds();
  const installP50 = { off: percentile(installs.off, 0.5), required: percentile(installs.required, 0.5) };
  rows.push({ name: "add() + first call, requirements installed, p50", off: installP50.off, sandboxed: installP50.required, unit: "ms" });

  const warm: Record<Mode, { p50: number; p99: number }> = { off: { p50: 0, p99: 0 }, required: { p50: 0, p99: 0 } };
  // Alternating rounds, so a burst of load on the shared machine hits both sides alike.
  const rounds: Record<Mode, number[]> = { off: [], required: [] };
  const warmTools = Object.fromEntries(
    MODES.map((mode) => [mode, new AgentTools({ cacheDir: join(work, `warm-${mode}`), sandbox: mode })]),
  ) as Record<Mode, AgentTools>;
  for (const mode of MODES) {
    await warmTools[mode].add({ path: toolDir });
    for (let i = 0; i < 500; i++) await warmTools[mode].executeToolById("trivial", { value: i });
  }
  for (let round = 0; round < 10; round++) {
    for (const mode of MODES)
      rounds[mode].push(...(await sample(WARM_CALLS / 10, (i) => warmTools[mode].executeToolById("trivial", { value: i }))));
  }
  for (const mode of MODES) {
    warm[mode] = p50p99(rounds[mode]);
    await warmTools[mode].close();
  }
  rows.push({ name: "warm Python call, p50", off: warm.off.p50, sandboxed: warm.required.p50, unit: "ms" });
  rows.push({ name: "warm Python call, p99", off: warm.off.p99, sandboxed: warm.required.p99, unit: "ms" });

  const binary = await measureBinary(binaryDir);
  rows.push(...binary.rows);

  // Bash calls alternate between the two tools, so load on the shared machine hits both alike.
  const compareBash = async (name: string, cwd: string) => {
    const bashes = Object.fromEntries(MODES.map((mode) => [mode, new Bash({ cwd, sandbox: mode })])) as Record<Mode, Bash>;
    const times: Record<Mode, number[]> = { off: [], required: [] };
    for (let call = 0; call < BASH_CALLS + 5; call++)
      for (const mode of MODES) {
        const start = performance.now();
        await bashes[mode].call({ command: "true" });
        if (call >= 5) times[mode].push(performance.now() - start);
      }
    rows.push({ name, off: percentile(times.off, 0.5), sandboxed: percentile(times.required, 0.5), unit: "ms" });
    const spread = (mode: Mode) => `${percentile(times[mode], 0.1).toFixed(1)}-${percentile(times[mode], 0.9).toFixed(1)}`;
    console.error(`${name}: p10-p90 ${spread("off")} / ${spread("required")} ms`);
  };
  await compareBash("Bash command (`true`), p50", work);
  await compareBash(`Bash command (\`true\`) in a ${PROJECT_FOLDERS * 10}-file project, p50`, await writeProject());

  const manyDirs = await Promise.all(Array.from({ length: MANY_TOOLS }, (_, i) => writeTool(`many-${i}`)));
  for (const mode of MODES) {
    const tools = new AgentTools({ cacheDir: join(work, `many-${mode}`), sandbox: mode, workerIdleTimeoutMs: 0 });
    for (const path of manyDirs) await tools.add({ path });
    const lazy = await descendantsRss();
    await tools.startWorkers();
    const started = await descendantsRss();
    await tools.close();
    memory[mode] = { lazy, started };
  }

  const lines = [
    `Sandbox cost: bubblewrap ${support.available ? support.version : ""}, ` +
      `${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}, Node ${process.version}`,
    "",
    "| measure | unsandboxed | sandboxed | ratio |",
    "|---|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.off.toFixed(3)} ${row.unit} | ${row.sandboxed.toFixed(3)} ` +
        `${row.unit} | ${row.ratio ?? (row.sandboxed / row.off).toFixed(2)} |`,
    ),
    ...MODES.map((mode) => {
      const { lazy, started } = memory[mode];
      return (
        `| ${MANY_TOOLS} tools added, ${mode === "off" ? "unsandboxed" : "sandboxed"}: processes / RSS | lazy: ` +
        `${lazy.count} / ${lazy.mib.toFixed(0)} MiB | all started: ${started.count} / ${started.mib.toFixed(0)} MiB | |`
      );
    }),
  ];
  console.log(lines.join("\n"));
  const spread = (mode: Mode) => `${Math.min(...installs[mode]).toFixed(0)}–${Math.max(...installs[mode]).toFixed(0)} ms`;
  console.log(
    `\nrequirements install (${INSTALLS} alternating rounds): unsandboxed p50 ` +
      `${installP50.off.toFixed(0)} ms (${spread("off")}), sandboxed p50 ${installP50.required.toFixed(0)} ` +
      `ms (${spread("required")}), ratio ${(installP50.required / installP50.off).toFixed(2)}`,
  );
  console.log(["", ...(await seccompCost())].join("\n"));
  const ratio = warm.required.p50 / warm.off.p50;
  console.log(`\nwarm call p50 ratio ${ratio.toFixed(3)} (limit 1.10): ${ratio <= 1.1 ? "within" : "OVER"}`);
  const binaryRatio = binary.warmRatio;
  console.log(
    `warm binary call p50 ratio ${binaryRatio.median.toFixed(2)}, rounds ${binaryRatio.low.toFixed(2)}–${binaryRatio.high.toFixed(2)} ` +
      `(aim ${BINARY_WARM_AIM.toFixed(2)}): ${binaryRatio.median <= BINARY_WARM_AIM ? "within" : "OVER"}`,
  );
}

interface Row {
  name: string;
  off: number;
  sandboxed: number;
  unit: string;
  /** Printed instead of the plain ratio: the median of per-round ratios and their spread. */
  ratio?: string;
}

/**
 * Binary calls, the two modes alternating call by call so load on the shared machine hits both
 * alike: warm (each mode's tool already called) in rounds, each round's p50 ratio kept, and the
 * first call of a freshly added tool (the sandboxed one starts its warm sandbox).
 */
async function measureBinary(binaryDir: string): Promise<{ rows: Row[]; warmRatio: Spread }> {
  const tools = Object.fromEntries(
    MODES.map((mode) => [mode, new AgentTools({ cacheDir: join(work, `binary-${mode}`), sandbox: mode })]),
  ) as Record<Mode, AgentTools>;
  const call = (mode: Mode, i: number) => tools[mode].executeToolById("binary-increment", { value: i });
  for (const mode of MODES) {
    await tools[mode].add({ path: binaryDir });
    for (let i = 0; i < 20; i++) await call(mode, i);
  }
  const all: Record<Mode, number[]> = { off: [], required: [] };
  const roundRatios: number[] = [];
  for (let round = 0; round < BINARY_ROUNDS; round++) {
    const times: Record<Mode, number[]> = { off: [], required: [] };
    for (let i = 0; i < BINARY_CALLS_PER_ROUND; i++) {
      for (const mode of i % 2 === 0 ? MODES : [...MODES].reverse()) {
        const start = performance.now();
        await call(mode, i);
        times[mode].push(performance.now() - start);
      }
    }
    roundRatios.push(p50p99(times.required).p50 / p50p99(times.off).p50);
    for (const mode of MODES) all[mode].push(...times[mode]);
  }
  await Promise.all(MODES.map((mode) => tools[mode].close()));

  const cold: Record<Mode, number[]> = { off: [], required: [] };
  for (let round = -1; round < BINARY_COLD_ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) {
      const fresh = new AgentTools({ cacheDir: join(work, `binary-cold-${mode}`), sandbox: mode });
      await fresh.add({ path: binaryDir });
      const start = performance.now();
      await fresh.executeToolById("binary-increment", { value: round });
      if (round >= 0) cold[mode].push(performance.now() - start); // round -1 warms the preflight and the caches
      await fresh.close();
    }
  }

  const warm = { off: p50p99(all.off), required: p50p99(all.required) };
  const warmRatio = spreadOf(roundRatios);
  const coldOff = spreadOf(cold.off);
  const coldSandboxed = spreadOf(cold.required);
  const rounds = `${BINARY_ROUNDS} interleaved rounds of ${BINARY_CALLS_PER_ROUND}`;
  return {
    warmRatio,
    rows: [
      {
        name: `binary tool call, warm, p50 (${rounds}; ratio: median of rounds, their range)`,
        off: warm.off.p50,
        sandboxed: warm.required.p50,
        unit: "ms",
        ratio: `${warmRatio.median.toFixed(2)} (${warmRatio.low.toFixed(2)}–${warmRatio.high.toFixed(2)})`,
      },
      { name: "binary tool call, warm, p99", off: warm.off.p99, sandboxed: warm.required.p99, unit: "ms" },
      {
        name: `binary tool first call (starts the sandbox), median of ${BINARY_COLD_ROUNDS} interleaved (range)`,
        off: coldOff.median,
        sandboxed: coldSandboxed.median,
        unit: "ms",
        ratio:
          `${(coldSandboxed.median / coldOff.median).toFixed(2)} (${coldOff.low.toFixed(1)}–${coldOff.high.toFixed(1)} ` +
          `/ ${coldSandboxed.low.toFixed(1)}–${coldSandboxed.high.toFixed(1)} ms)`,
      },
    ],
  };
}

/**
 * `add()` and the first call of a tool needing one wheel, each time with an empty cache (so the
 * venv is built), unsandboxed and sandboxed in alternating rounds, the order swapped every round,
 * so a burst of load on the shared machine hits both sides alike; milliseconds per mode.
 */
async function installRounds(): Promise<Record<Mode, number[]>> {
  const index = await startPackageIndex([await writeTinyWheel(join(work, "install-wheels"), "benchdep", "1.0", "VALUE = 1\n")]);
  const toolDir = join(work, "with-requirements");
  await mkdir(join(toolDir, "code"), { recursive: true });
  await writeFile(join(toolDir, "code", "function.py"), `import benchdep\n${TOOL}`);
  await writeFile(join(toolDir, "code", "requirements.txt"), "benchdep==1.0\n");
  await writeFile(join(toolDir, "spec.json"), JSON.stringify({ tool_id: "with-requirements", tool_runtime_type: "python" }));
  const times: Record<Mode, number[]> = { off: [], required: [] };
  try {
    for (let round = 0; round < INSTALLS; round++) {
      for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) {
        const tools = new AgentTools({
          cacheDir: join(work, `install-${mode}-${round}`),
          sandbox: mode,
          pipArgs: ["--index-url", index.url],
        });
        const start = performance.now();
        await tools.add({ path: toolDir });
        await tools.executeToolById("with-requirements", { value: round });
        times[mode].push(performance.now() - start);
        await tools.close();
      }
    }
  } finally {
    await index.close();
  }
  return times;
}

async function writeTool(toolId: string): Promise<string> {
  const dir = join(work, toolId);
  await mkdir(join(dir, "code"), { recursive: true });
  await writeFile(join(dir, "code", "function.py"), TOOL);
  await writeFile(join(dir, "spec.json"), JSON.stringify({ tool_id: toolId, tool_runtime_type: "python" }));
  return dir;
}

/** A project of PROJECT_FOLDERS folders of ten source files, and two secret files to hide. */
async function writeProject(): Promise<string> {
  const project = join(work, "project");
  for (let folder = 0; folder < PROJECT_FOLDERS; folder++) {
    await mkdir(join(project, `pkg${folder}`, "src"), { recursive: true });
    for (let file = 0; file < 10; file++) await writeFile(join(project, `pkg${folder}`, "src", `m${file}.ts`), "export {};\n");
  }
  await writeFile(join(project, ".env"), "KEY=1\n");
  await writeFile(join(project, "pkg1", ".env.local"), "KEY=2\n");
  return project;
}

/** Times `count` sequential calls after `warmup` untimed ones; milliseconds. */
async function sample(count: number, call: (i: number) => Promise<unknown>, warmup = 0): Promise<number[]> {
  await timedCalls(warmup, call);
  return timedCalls(count, call);
}

/** Every process descending from this one (the workers and their sandboxes), and their summed RSS. */
async function descendantsRss(): Promise<{ count: number; mib: number }> {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = await readFile(`/proc/${entry}/status`, "utf8");
      parents.set(Number(entry), Number(/PPid:\s+(\d+)/.exec(status)?.[1]));
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
    } catch {
      // exited meanwhile
    }
  }
  const ours = new Set<number>([process.pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!ours.has(pid) && ours.has(parent)) {
        ours.add(pid);
        grew = true;
      }
    }
  }
  ours.delete(process.pid);
  const kib = [...ours].reduce((sum, pid) => sum + (rss.get(pid) ?? 0), 0);
  return { count: ours.size, mib: kib / 1024 };
}
