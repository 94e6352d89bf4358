/**
 * What the sandbox costs, sandboxed (bubblewrap, `sandbox: "required"`) against unsandboxed
 * (`sandbox: "off"`), both measured in this run on the same tools:
 *   worker start (first call of a freshly added Python tool: start, import, construct, call)
 *   warm Python call through the persistent worker (the sandbox must stay within 10% of p50)
 *   binary tool call (the gcc-compiled increment fixture)
 *   Bash command (`true` through the Bash tool), also in a project of 2 000 files (the sandbox
 *     walks it for secret files to hide before every command)
 *   memory with 50 Python tools added (lazy workers: nothing runs until a call), then with all 50 started
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
import { p50p99, percentile } from "./percentiles.js";

const WARM_CALLS = 5_000;
const STARTS = 20;
const BINARY_CALLS = 200;
const BASH_CALLS = 100;
/** Folders of ten files each in the project the second Bash row runs in. */
const PROJECT_FOLDERS = 200;
const MANY_TOOLS = 50;

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

  const rows: Array<{ name: string; off: number; sandboxed: number; unit: string }> = [];
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

  await compare("binary tool call, p50", "ms", async (mode) => {
    const tools = new AgentTools({ cacheDir: join(work, `binary-${mode}`), sandbox: mode });
    await tools.add({ path: binaryDir });
    const times = await sample(BINARY_CALLS, (i) => tools.executeToolById("binary-increment", { value: i }), 10);
    await tools.close();
    return p50p99(times).p50;
  });

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
    `Sandbox cost: bubblewrap ${support.available ? support.version : ""}, ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}, Node ${process.version}`,
    "",
    "| measure | unsandboxed | sandboxed | ratio |",
    "|---|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.name} | ${row.off.toFixed(3)} ${row.unit} | ${row.sandboxed.toFixed(3)} ${row.unit} | ${(row.sandboxed / row.off).toFixed(2)} |`,
    ),
    ...MODES.map((mode) => {
      const { lazy, started } = memory[mode];
      return `| ${MANY_TOOLS} tools added, ${mode === "off" ? "unsandboxed" : "sandboxed"}: processes / RSS | lazy: ${lazy.count} / ${lazy.mib.toFixed(0)} MiB | all started: ${started.count} / ${started.mib.toFixed(0)} MiB | |`;
    }),
  ];
  console.log(lines.join("\n"));
  const ratio = warm.required.p50 / warm.off.p50;
  console.log(`\nwarm call p50 ratio ${ratio.toFixed(3)} (limit 1.10): ${ratio <= 1.1 ? "within" : "OVER"}`);
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
  for (let i = 0; i < warmup; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call(i);
    times.push(performance.now() - start);
  }
  return times;
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
