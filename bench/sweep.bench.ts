/**
 * The scheduled repair at 10k and 50k tools against the embedded emulators, each case in every round
 * (order alternating), beside the baseline it replaces, the one-shot doctor (`runDoctor`: every key,
 * then every tool). Cases: the incremental run after 100 writes (100 audit events naming tools at
 * random), and the full pass run to its end in runs of a fixed time budget (`SWEEP_BENCH_BUDGET_MS`,
 * 10 s), as the sweeper runs it in runs of 4 minutes. Reported per size: the doctor's time; the
 * incremental run's time, items read and ratio to the doctor; the full pass's runs, items read, items a
 * second, longest run and its total time over the doctor's. The arithmetic for 1M tools is in
 * docs/deployment.md#capacity.
 *
 *   npx tsx bench/sweep.bench.ts                  (SWEEP_BENCH_SIZES=10000 for one size; BENCH_ROUNDS=1 for a quick look)
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { runDoctor } from "../functions/doctor/run-doctor.js";
import { timeBudget } from "../functions/doctor/sweep-options.js";
import { runSweep } from "../functions/doctor/sweep.js";
import { startLocalRegistry } from "../functions/local/start-local-registry.js";
import { createDynamoDocumentClient } from "../functions/storage/aws-clients.js";
import { RepairStore } from "../functions/storage/repair-store.js";
import { scaledCatalog } from "../test/functions/search/relevance-catalog.js";
import { seedCatalog } from "../test/functions/search/seed-catalog.js";
import { formatRatio, inRounds, roundsOr, spreadOf } from "./interleaved.js";
import { percentile } from "./percentiles.js";

const SIZES = (process.env.SWEEP_BENCH_SIZES ?? "10000,50000").split(",").map(Number);
const BUDGET_MS = Number(process.env.SWEEP_BENCH_BUDGET_MS ?? 10_000);
const CHANGED_TOOLS = 100;
const ROUNDS = roundsOr(3);
/** What the bench measures: nothing is in flight, so events and objects count at once. */
const NOW = { graceSeconds: 0, settleSeconds: 0 };

type Case = "doctor" | "incremental" | "full pass";
interface Measured {
  ms: number;
  itemsRead: number;
  runs: number;
  longestRunMs: number;
}

const dataDir = await mkdtemp(join(tmpdir(), "agent-tools-sweep-bench-"));
const local = await startLocalRegistry({ dataDir, port: 0, host: "127.0.0.1", token: "bench-token", searchIndexDelayMs: 3_600_000 });
const db = createDynamoDocumentClient(local.config);
const deps = { ...local.deps, repair: new RepairStore(db, local.config.tableName) };
console.log(
  `load average ${loadavg()
    .map((load) => load.toFixed(1))
    .join(" ")} (2 cores), ${ROUNDS} rounds, full-pass runs of ${BUDGET_MS} ms\n`,
);
console.log(
  "| tools | doctor s | incremental (100 changed) s / items read / × doctor | " +
    "full pass runs / items read / items/s | longest run s | full pass × doctor |",
);
console.log("|---:|---:|---:|---:|---:|---:|");
try {
  let seeded = 0;
  for (const size of SIZES) {
    const catalog = scaledCatalog(size);
    // Each tool names an archive of its own, as content-addressed archives of different tools do; none is stored
    // (every case reports each one missing, at the cost of the HEAD or listing that finds it).
    await seedCatalog(local, catalog.slice(seeded), (toolId) => createHash("sha256").update(toolId).digest("hex"));
    seeded = size;
    // The first sweep sets the incremental checkpoint (a day of events back, here none).
    await runSweep(deps, { fix: false, budget: timeBudget(600_000), incrementalOnly: true, ...NOW });
    const results = await inRounds<Case, Measured>(["doctor", "incremental", "full pass"], ROUNDS, (name) =>
      measure(
        name,
        catalog.map((spec) => spec.tool_id),
      ),
    );
    console.log(row(size, results));
  }
} finally {
  db.destroy();
  await local.close();
  await rm(dataDir, { recursive: true, force: true });
}

async function measure(name: Case, toolIds: readonly string[]): Promise<Measured> {
  const start = performance.now();
  if (name === "doctor") {
    const report = await runDoctor(local.deps, { graceSeconds: 0 });
    return { ms: performance.now() - start, itemsRead: report.toolsChecked, runs: 1, longestRunMs: performance.now() - start };
  }
  if (name === "incremental") {
    for (let i = 0; i < CHANGED_TOOLS; i++) {
      const toolId = toolIds[Math.floor(Math.random() * toolIds.length)]!;
      await local.deps.trust.audit.begin({
        time: new Date().toISOString(),
        token: "admin",
        action: "update",
        client: "127.0.0.1",
        outcome: "pending",
        status: 0,
        tool_id: toolId,
      });
    }
    const begun = performance.now();
    const report = await runSweep(deps, { fix: false, budget: timeBudget(600_000), incrementalOnly: true, ...NOW });
    const ms = performance.now() - begun;
    return { ms, itemsRead: report.incremental.itemsRead, runs: 1, longestRunMs: ms };
  }
  let itemsRead = 0;
  let runs = 0;
  let longestRunMs = 0;
  for (;;) {
    const runStart = performance.now();
    const report = await runSweep(deps, { fix: false, budget: timeBudget(BUDGET_MS), fullPassEverySeconds: 0, ...NOW });
    longestRunMs = Math.max(longestRunMs, performance.now() - runStart);
    itemsRead += report.fullPass.itemsRead;
    runs++;
    if (report.fullPass.finished) break;
  }
  return { ms: performance.now() - start, itemsRead, runs, longestRunMs };
}

function row(size: number, results: Record<Case, Measured[]>): string {
  const median = (name: Case, pick: (measured: Measured) => number) => percentile(results[name].map(pick), 0.5);
  const ratio = (name: Case) => formatRatio(spreadOf(results[name].map((measured, round) => measured.ms / results.doctor[round]!.ms)));
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  const full = (pick: (measured: Measured) => number) => median("full pass", pick);
  const cells = [
    size,
    seconds(median("doctor", (measured) => measured.ms)),
    `${seconds(median("incremental", (measured) => measured.ms))} / ` +
      `${median("incremental", (measured) => measured.itemsRead)} / ${ratio("incremental")}`,
    `${full((measured) => measured.runs)} / ${full((measured) => measured.itemsRead)} ` +
      `/ ${Math.round(full((measured) => measured.itemsRead / (measured.ms / 1000)))}`,
    seconds(full((measured) => measured.longestRunMs)),
    ratio("full pass"),
  ];
  return `| ${cells.join(" | ")} |`;
}
