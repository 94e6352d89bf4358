/**
 * Permission core overhead, per call, on one core: the engine's decision and the Toolkit executor's
 * full path (lookup, JSON Schema validation, engine, middleware onion, chunk accumulation, events),
 * each against a baseline measured in the same run (the tool's own check; a direct `invoke()`).
 *
 *   npx tsx bench/permission.bench.ts      (or: npm run bench permission)
 */
import { PermissionEngine } from "../sdk/src/permission/permission-engine.js";
import { PermissionMode } from "../sdk/src/permission/types.js";
import { FunctionTool } from "../sdk/src/tool/function-tool.js";
import { Toolkit } from "../sdk/src/toolkit/toolkit.js";
import { p50p99 } from "./percentiles.js";

const SECONDS_PER_CASE = 1.5;

interface Measure {
  name: string;
  p50: number;
  p99: number;
  baseline?: string;
}

async function measure(name: string, action: () => Promise<unknown>, baseline?: string): Promise<Measure> {
  for (let i = 0; i < 500; i++) await action(); // warm up the JIT and caches
  const samples: number[] = [];
  const end = process.hrtime.bigint() + BigInt(SECONDS_PER_CASE * 1e9);
  while (process.hrtime.bigint() < end) {
    const start = process.hrtime.bigint();
    await action();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return { name, ...p50p99(samples), ...(baseline ? { baseline } : {}) };
}

const add = new FunctionTool(({ a, b }: { a: number; b: number }) => a + b, {
  name: "add",
  description: "Add two numbers.",
  inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
});
const input = { a: 1, b: 2 };
const otherRules = Array.from({ length: 200 }, (_, i) => `tool_${i}(content ${i})`);

const plain = new PermissionEngine();
const manyRules = new PermissionEngine({ allow: [...otherRules, "add"], deny: otherRules, ask: otherRules });
const bypass = new PermissionEngine({ mode: PermissionMode.BYPASS });
const toolkit = new Toolkit({ tools: [add], engine: new PermissionEngine({ allow: ["add"] }) });
const executor = toolkit.createExecutor();
const withMiddleware = new FunctionTool(({ a, b }: { a: number; b: number }) => a + b, { name: "add_mw" });
for (let i = 0; i < 5; i++) {
  withMiddleware.use(async function* (_tool, layerInput, next) {
    yield* next(layerInput);
  });
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) void _;
}

const results: Measure[] = [];
results.push(await measure("tool's own checkPermissions (baseline A)", async () => add.checkPermissions()));
results.push(await measure("engine: no rules → ASK + suggestions", () => plain.checkPermission(add, input), "baseline A"));
results.push(await measure("engine: 600 rules of other tools + allow rule", () => manyRules.checkPermission(add, input), "baseline A"));
results.push(await measure("engine: BYPASS", () => bypass.checkPermission(add, input), "baseline A"));
results.push(await measure("direct tool.invoke() (baseline B)", () => drain(add.invoke(input))));
results.push(await measure("invoke() through 5 middlewares", () => drain(withMiddleware.invoke(input)), "baseline B"));
results.push(
  await measure(
    "executor.run: validate + engine + run + events",
    () => drain(executor.run([{ id: "1", name: "add", input }])),
    "baseline B",
  ),
);
results.push(
  await measure(
    "executor.run with raw JSON arguments",
    () => drain(executor.run([{ id: "1", name: "add", input: '{"a":1,"b":2}' }])),
    "baseline B",
  ),
);

const baselines = new Map([
  ["baseline A", results[0]!],
  ["baseline B", results[4]!],
]);
console.log("| case | p50 (µs) | p99 (µs) | p50 vs baseline |");
console.log("|---|---:|---:|---:|");
for (const result of results) {
  const base = result.baseline ? baselines.get(result.baseline) : undefined;
  const ratio = base ? `${(result.p50 / base.p50).toFixed(1)}× ${result.baseline}` : "—";
  console.log(`| ${result.name} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${ratio} |`);
}
