/**
 * Uploads against two builds of the registry in the same run: this checkout and another one
 * (`BASE_CHECKOUT`, a tree with this file and `node_modules`), each in a registry child of its own,
 * taking turns in rounds (bench/interleaved.ts): per round 15 sequential uploads (their p50) and
 * 150 over 10 connections (their rate). Prints this build's ratios to the other, median and range,
 * so a change is measured against what it changed on a busy machine. Not part of `npm run bench`.
 *
 *   git archive <commit> | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules
 *   cp bench/compare-builds.ts /tmp/base/bench/
 *   BASE_CHECKOUT=/tmp/base npx tsx bench/compare-builds.ts
 */
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type RegistryChild, startRegistryChild, withLocalRegistry } from "./child-server.js";
import { formatRatio, inRounds, roundRatios, roundsOr, timedCalls } from "./interleaved.js";
import { percentile } from "./percentiles.js";
import { newTools, uploadTool } from "./publish-workload.js";

const SEQUENTIAL = 15;
const CONCURRENT = 150;
const CONNECTIONS = 10;

if (process.argv.includes("--serve")) await withLocalRegistry(import.meta.url, async () => undefined);
else await compare();

async function compare(): Promise<void> {
  const base = process.env.BASE_CHECKOUT;
  if (!base) throw new Error("BASE_CHECKOUT must name the other build's checkout (see the comment at the top of this file)");
  const rounds = roundsOr(6);
  const builds: Record<"before" | "after", RegistryChild> = {
    before: await startRegistryChild(pathToFileURL(join(base, "bench/compare-builds.ts")).href),
    after: await startRegistryChild(import.meta.url),
  };
  try {
    const count = (rounds + 1) * (SEQUENTIAL + CONCURRENT);
    const tools = { before: newTools(count, "before"), after: newTools(count, "after") };
    const next = { before: 0, after: 0 };
    const upload = (build: "before" | "after") => uploadTool(builds[build].url, builds[build].token, tools[build][next[build]++]!);
    for (const build of ["before", "after"] as const) await timedCalls(SEQUENTIAL, () => upload(build)); // warm-up
    const startLoad = loadavg()[0]!;
    const measured = await inRounds(["before", "after"] as const, rounds, async (build) => {
      const sequential = percentile(await timedCalls(SEQUENTIAL, () => upload(build)), 0.5);
      let left = CONCURRENT;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (left-- > 0) await upload(build);
        }),
      );
      return { sequential, rate: CONCURRENT / ((performance.now() - start) / 1000) };
    });
    const ratio = (of: (round: { sequential: number; rate: number }) => number) =>
      formatRatio(roundRatios(measured.after.map(of), measured.before.map(of)));
    console.log(
      `${rounds} interleaved rounds, load average ${startLoad.toFixed(1)} at the start and ${loadavg()[0]!.toFixed(1)} at the end`,
    );
    console.log(`sequential upload p50, this build / BASE_CHECKOUT: ${ratio((round) => round.sequential)}`);
    console.log(`uploads per second over ${CONNECTIONS} connections, this build / BASE_CHECKOUT: ${ratio((round) => round.rate)}`);
  } finally {
    await Promise.all([builds.before.stop(), builds.after.stop()]);
  }
}
