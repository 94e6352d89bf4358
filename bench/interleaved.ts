/**
 * Measurements interleaved with their baselines: every case runs in every round, one after
 * another (the order turned round every other round), so load from elsewhere on a shared machine
 * (bursts of seconds) falls on a case and its baseline alike. A ratio is the median of the rounds'
 * own ratios, shown with their range, so a reader sees how much it moved.
 */
import { percentile } from "./percentiles.js";

/**
 * The number of rounds: `BENCH_ROUNDS` when set (a quick look on a busy machine:
 * `BENCH_ROUNDS=3 npx tsx bench/upload-sequential.bench.ts`), else the benchmark's own.
 */
export function roundsOr(standard: number): number {
  const asked = process.env.BENCH_ROUNDS;
  if (asked === undefined) return standard;
  const rounds = Number(asked);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS must be a whole number ≥ 1, got "${asked}"`);
  return rounds;
}

/** What one case measured in one round: latency samples (ms), or a rate (operations per second). */
export type RoundResult = number[] | number;

/** Runs `measure(name, round)` for every name in every round; results per name, per round. */
export async function inRounds<Name extends string, Result>(
  names: readonly Name[],
  rounds: number,
  measure: (name: Name, round: number) => Promise<Result>,
): Promise<Record<Name, Result[]>> {
  const results = Object.fromEntries(names.map((name) => [name, [] as Result[]])) as Record<Name, Result[]>;
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) results[name].push(await measure(name, round));
  }
  return results;
}

/** `count` sequential calls of `call`, each timed (ms). */
export async function timedCalls(count: number, call: (i: number) => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call(i);
    times.push(performance.now() - start);
  }
  return times;
}

export interface Spread {
  median: number;
  low: number;
  high: number;
}

export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), low: sorted[0] ?? Number.NaN, high: sorted.at(-1) ?? Number.NaN };
}

/** A round's value: the p50 of its samples, or its rate. */
function roundValue(result: RoundResult): number {
  return typeof result === "number" ? result : percentile(result, 0.5);
}

/** The rounds' ratios of `measured` to `baseline` (p50 / p50, or rate / rate), as median and range. */
export function roundRatios(measured: readonly RoundResult[], baseline: readonly RoundResult[]): Spread {
  return spreadOf(measured.map((result, round) => roundValue(result) / roundValue(baseline[round]!)));
}

/** "1.13× (1.05–1.21×)": a ratio's median and the range of the rounds. */
export function formatRatio(spread: Spread, digits = 2): string {
  return `${spread.median.toFixed(digits)}× (${spread.low.toFixed(digits)}–${spread.high.toFixed(digits)}×)`;
}

/** Every round's samples in one list (for overall percentiles). */
export function allSamples(rounds: readonly number[][]): number[] {
  return rounds.flat();
}
