/**
 * SDK call and add costs, all measured in this run on the same trivial Python tool:
 *   (a) warm `executeToolById` through the persistent worker
 *   (b) the same tool called in-process by a Python loop (timed inside Python)
 *   (f) the floor: a bare JSON-line round trip to a persistent Python process over the same pipes
 *   (c) spawning the Python interpreter per call
 *   (d) a binary tool call (the gcc-compiled increment fixture), and (d0) just spawning it
 *   (e) cold `add` (empty cache) and cached re-`add` (new AgentTools, same cache), against the local registry
 *   (g) the floor for an add: starting the bare interpreter
 * (a) and its floor (f), and (d) and its floor (d0), are interleaved in rounds (bench/interleaved.ts):
 * their ratios are the median of the rounds' p50 ratios, with their range.
 *
 *   npx tsx bench/sdk.bench.ts      (or: npm run bench sdk)
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { promisify } from "node:util";
import { AgentTools } from "../sdk/src/agent-tools.js";
import { resolvePythonInterpreter } from "../sdk/src/runtimes/python/python-interpreter.js";
import { runProcess } from "../sdk/src/runtimes/run-process.js";
import { buildBundle, buildPythonToolZip, compileIncrement, fixtureBundle } from "../test/support/bundles.js";
import { startTestRegistry, uploadBundle } from "../test/support/registry.js";
import { allSamples, formatRatio, inRounds, roundRatios, roundsOr, type Spread, timedCalls } from "./interleaved.js";
import { p50p99 } from "./percentiles.js";

const WARM_CALLS = 20_000;
const SPAWN_CALLS = 30;
const BINARY_CALLS = 300;
const ADDS = 15;
const ROUNDS = roundsOr(10);

const TOOL = `class AgentSpaceV1Tool:
    def __init__(self, tool_id, tool_data):
        self.step = tool_data.get("tool_parameters", {}).get("step", 1)
    def execute(self, input_data):
        return {"value": input_data["value"] + self.step}
`;

interface Row {
  name: string;
  p50: number;
  p99: number;
  note?: string;
}

const work = await mkdtemp(join(tmpdir(), "agent-tools-sdk-bench-"));
try {
  await main();
} finally {
  await rm(work, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const toolDir = join(work, "trivial");
  await mkdir(join(toolDir, "code"), { recursive: true });
  await writeFile(join(toolDir, "code", "function.py"), TOOL);
  await writeFile(
    join(toolDir, "spec.json"),
    JSON.stringify({ tool_id: "trivial", tool_runtime_type: "python", tool_parameters: { step: 1 } }),
  );

  const resolveStart = performance.now();
  const interpreter = await resolvePythonInterpreter("python3");
  const resolveMs = performance.now() - resolveStart;

  const rows: Row[] = [];
  const tools = new AgentTools({ cacheDir: join(work, "cache") });
  await tools.add({ path: toolDir });
  const floor = bareRoundTrip(interpreter.executable);
  const warm = await interleaved(
    {
      warm: (i) => tools.executeToolById("trivial", { value: i }),
      floor: floor.roundTrip,
    },
    WARM_CALLS,
    2_000,
  );
  await floor.close();
  rows.push({ name: "(a) warm executeToolById, Python worker", ...warm.rows.warm });
  rows.push({ name: "(b) same tool in-process, Python loop", ...(await pythonLoop(interpreter.executable, toolDir)) });
  rows.push({ name: "(f) floor: bare JSON-line round trip to Python (interleaved with (a))", ...warm.rows.floor });
  rows.push({
    name: "(c) spawn Python per call",
    ...(await spawnPerCall(interpreter.executable, toolDir)),
    note: "real interpreter, not the shim",
  });
  const bareStart = () => promisify(execFile)(interpreter.executable, ["-S", "-B", "-c", "pass"]);
  rows.push({ name: "(g) floor for an add: bare interpreter start, `python -S -B -c pass`", ...(await sample(SPAWN_CALLS, bareStart, 2)) });

  const registry = await startTestRegistry();
  let binary: Interleaved<"call" | "spawn"> | undefined;
  try {
    await uploadBundle(registry.url, registry.token, (await fixtureBundle("binary-increment")).bundle);
    const spec = { tool_id: "trivial", tool_runtime_type: "python", tool_parameters: { step: 1 }, tool_metadata: { version: "1.0.0" } };
    await uploadBundle(registry.url, registry.token, buildBundle({ spec, toolZip: buildPythonToolZip(toolDir), toolMd: "# trivial\n" }));
    const remote = new AgentTools({ toolsDbUrl: registry.url, cacheDir: join(work, "cache") });
    await remote.add("binary-increment");
    const increment = await compileIncrement();
    binary = await interleaved(
      {
        call: (i) => remote.executeToolById("binary-increment", { value: i }),
        spawn: () =>
          runProcess(increment, ['{"tool_id":"t","tool_data":{},"mode":"input","input":{"value":1}}', join(work, "floor-out.json")]),
      },
      BINARY_CALLS,
      20,
    );
    await remote.close();
    rows.push({ name: "(d) binary tool call (fork+exec, output file)", ...binary.rows.call });
    rows.push({ name: "(d0) floor for (d): spawn the same binary from Node, nothing else (interleaved with (d))", ...binary.rows.spawn });

    const coldCaches = await Promise.all(Array.from({ length: ADDS + 2 }, () => mkdtemp(join(work, "cold-"))));
    rows.push({
      name: "(e) cold add: GET entry, download, verify, unpack, start worker",
      ...(await timeAdds(registry.url, "trivial", (i) => coldCaches[i] ?? work)),
    });
    const sharedCache = join(work, "shared-cache");
    const priming = new AgentTools({ toolsDbUrl: registry.url, cacheDir: sharedCache });
    await priming.add("trivial");
    await priming.add("trivial@1.0.0");
    await priming.close();
    rows.push({
      name: "(e) cached re-add: GET entry, cached tree, start worker",
      ...(await timeAdds(registry.url, "trivial", () => sharedCache)),
    });
    rows.push({
      name: "(e) cached re-add of id@version: one conditional GET (304), cached tree",
      ...(await timeAdds(registry.url, "trivial@1.0.0", () => sharedCache)),
    });
  } finally {
    await tools.close();
    await registry.close();
  }

  print(rows, resolveMs);
  console.log(`Warm call (a) / bare round trip (f): ${formatRatio(warm.ratio)}, interleaved in ${ROUNDS} rounds.`);
  if (binary) console.log(`Binary call (d) / bare spawn (d0): ${formatRatio(binary.ratio)}, interleaved in ${ROUNDS} rounds.`);
}

interface Interleaved<Name extends string> {
  rows: Record<Name, { p50: number; p99: number }>;
  /** The first case's p50 over the second's, per round. */
  ratio: Spread;
}

/**
 * A case and its floor (`calls`: the case first), `count` calls of each after `warmup` untimed
 * ones, taking turns in ROUNDS rounds.
 */
async function interleaved<Name extends string>(
  calls: Record<Name, (i: number) => Promise<unknown>>,
  count: number,
  warmup: number,
): Promise<Interleaved<Name>> {
  const names = Object.keys(calls) as Name[];
  for (const name of names) await timedCalls(warmup, calls[name]);
  const rounds = await inRounds(names, ROUNDS, (name) => timedCalls(Math.ceil(count / ROUNDS), calls[name]));
  const rows = Object.fromEntries(names.map((name) => [name, p50p99(allSamples(rounds[name]))])) as Record<
    Name,
    { p50: number; p99: number }
  >;
  return { rows, ratio: roundRatios(rounds[names[0]!], rounds[names[1]!]) };
}

/** Each `add` by a new AgentTools (as a new agent process would); only the `add` is timed, not `close`. */
async function timeAdds(url: string, ref: string, cacheDir: (i: number) => string): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < ADDS + 2; i++) {
    const tools = new AgentTools({ toolsDbUrl: url, cacheDir: cacheDir(i) });
    const start = performance.now();
    await tools.add(ref);
    if (i >= 2) times.push(performance.now() - start); // two untimed warm-ups
    await tools.close();
  }
  return p50p99(times);
}

/** Times `count` sequential calls after `warmup` untimed ones; milliseconds. */
async function sample(count: number, call: (i: number) => Promise<unknown>, warmup: number): Promise<{ p50: number; p99: number }> {
  await timedCalls(warmup, call);
  return p50p99(await timedCalls(count, call));
}

/** (b): the tool imported into Python and called in a loop, each call timed with perf_counter_ns. */
async function pythonLoop(python: string, toolDir: string): Promise<{ p50: number; p99: number }> {
  const script = `
import importlib.util, json, sys, time
spec = importlib.util.spec_from_file_location("trivial_tool", sys.argv[1])
module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
tool = module.AgentSpaceV1Tool("trivial", {"tool_parameters": {"step": 1}})
times = []
for i in range(${WARM_CALLS}):
    start = time.perf_counter_ns(); tool.execute({"value": i}); times.append(time.perf_counter_ns() - start)
print(json.dumps([t / 1e6 for t in times]))
`;
  const { stdout } = await promisify(execFile)(python, ["-c", script, join(toolDir, "code", "function.py")], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return p50p99(JSON.parse(stdout) as number[]);
}

/** (f): the cheapest possible exchange over the worker's transport: read a JSON line, answer one. */
function bareRoundTrip(python: string): { roundTrip(i: number): Promise<unknown>; close(): Promise<void> } {
  const script = `
import json, os
requests = os.fdopen(3, "rb"); replies = os.fdopen(4, "wb", buffering=0)
for line in requests:
    replies.write((json.dumps({"ok": True, "value": json.loads(line)["input"]}) + "\\n").encode())
`;
  const child = spawn(python, ["-S", "-c", script], { stdio: ["ignore", "inherit", "inherit", "pipe", "pipe"] });
  const requests = child.stdio[3] as Writable;
  const replies = (child.stdio[4] as Readable).setEncoding("utf8");
  let buffered = "";
  let waiting: ((line: string) => void) | undefined;
  replies.on("data", (text: string) => {
    buffered += text;
    const newline = buffered.indexOf("\n");
    if (newline !== -1 && waiting) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      waiting(line);
    }
  });
  const roundTrip = (i: number) =>
    new Promise<unknown>((resolve) => {
      waiting = (line) => resolve(JSON.parse(line));
      requests.write(`${JSON.stringify({ op: "execute", input: { value: i } })}\n`);
    });
  return {
    roundTrip,
    async close() {
      requests.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

/** (c): what a runtime without a persistent worker pays: a fresh interpreter, import, construct, call. */
async function spawnPerCall(python: string, toolDir: string): Promise<{ p50: number; p99: number }> {
  const script = `
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("trivial_tool", sys.argv[1])
module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
print(json.dumps(module.AgentSpaceV1Tool("trivial", {"tool_parameters": {"step": 1}}).execute(json.loads(sys.argv[2]))))
`;
  const run = promisify(execFile);
  return sample(SPAWN_CALLS, (i) => run(python, ["-c", script, join(toolDir, "code", "function.py"), JSON.stringify({ value: i })]), 2);
}

function print(rows: Row[], resolveMs: number): void {
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")} (other work on the machine inflates every row)\n`,
  );
  const base = rows[0]?.p50 ?? Number.NaN;
  const format = (ms: number) => (ms < 1 ? ms.toFixed(4) : ms.toFixed(1));
  console.log("| measurement | p50 ms | p99 ms | p50 / (a) |");
  console.log("|---|---:|---:|---:|");
  for (const row of rows) {
    console.log(
      `| ${row.name}${row.note ? ` (${row.note})` : ""} | ${format(row.p50)} | ${format(row.p99)} | ${(row.p50 / base).toFixed(2)}× |`,
    );
  }
  console.log(`\nResolving \`python3\` to its real interpreter (once per process): ${resolveMs.toFixed(0)} ms.`);
}
