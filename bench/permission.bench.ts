/**
 * Permission core overhead, per call, on one core: the engine's decision and the Toolkit executor's
 * full path (lookup, JSON Schema validation, engine, middleware onion, chunk accumulation, events),
 * each against a baseline measured in the same run (the tool's own check; a direct `invoke()`),
 * every case interleaved with the others in rounds (bench/interleaved.ts): a ratio is the median
 * of the rounds' p50 ratios, with their range.
 *
 *   npx tsx bench/permission.bench.ts      (or: npm run bench permission)
 */
import { PermissionEngine } from "../sdk/src/permission/permission-engine.js";
import { PermissionMode } from "../sdk/src/permission/types.js";
import { FunctionTool } from "../sdk/src/tool/function-tool.js";
import { Toolkit } from "../sdk/src/toolkit/toolkit.js";
import { allSamples, formatRatio, inRounds, roundRatios, roundsOr, timedCalls } from "./interleaved.js";
import { p50p99 } from "./percentiles.js";

const SECONDS_PER_CASE = 1.5;
const ROUNDS = roundsOr(6);

/** One round of a case: as many calls as fit in its share of SECONDS_PER_CASE; µs each. */
async function measure(action: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  const end = process.hrtime.bigint() + BigInt(Math.round((SECONDS_PER_CASE / ROUNDS) * 1e9));
  while (process.hrtime.bigint() < end) {
    const start = process.hrtime.bigint();
    await action();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return samples;
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

const BASELINE_A = "tool's own checkPermissions (baseline A)";
const BASELINE_B = "direct tool.invoke() (baseline B)";
/** Each case: what it runs and the baseline it is compared with. */
const cases: Record<string, { action: () => Promise<unknown>; baseline?: string }> = {
  [BASELINE_A]: { action: async () => add.checkPermissions() },
  "engine: no rules → ASK + suggestions": { action: () => plain.checkPermission(add, input), baseline: BASELINE_A },
  "engine: 600 rules of other tools + allow rule": { action: () => manyRules.checkPermission(add, input), baseline: BASELINE_A },
  "engine: BYPASS": { action: () => bypass.checkPermission(add, input), baseline: BASELINE_A },
  [BASELINE_B]: { action: () => drain(add.invoke(input)) },
  "invoke() through 5 middlewares": { action: () => drain(withMiddleware.invoke(input)), baseline: BASELINE_B },
  "executor.run: validate + engine + run + events": {
    action: () => drain(executor.run([{ id: "1", name: "add", input }])),
    baseline: BASELINE_B,
  },
  "executor.run with raw JSON arguments": {
    action: () => drain(executor.run([{ id: "1", name: "add", input: '{"a":1,"b":2}' }])),
    baseline: BASELINE_B,
  },
};
const names = Object.keys(cases);
for (const name of names) await timedCalls(500, cases[name]!.action); // warm up the JIT and caches
const rounds = await inRounds(names, ROUNDS, (name) => measure(cases[name]!.action));

console.log(`${ROUNDS} interleaved rounds of ${(SECONDS_PER_CASE / ROUNDS).toFixed(2)} s per case.\n`);
console.log("| case | p50 (µs) | p99 (µs) | p50 vs baseline |");
console.log("|---|---:|---:|---:|");
for (const name of names) {
  const { p50, p99 } = p50p99(allSamples(rounds[name]!));
  const { baseline } = cases[name]!;
  const ratio = baseline ? `${formatRatio(roundRatios(rounds[name]!, rounds[baseline]!), 1)} ${baseline.match(/baseline \w/)![0]}` : "—";
  console.log(`| ${name} | ${p50.toFixed(1)} | ${p99.toFixed(1)} | ${ratio} |`);
}
