/**
 * One upload at a time, against two baselines measured in the same run and interleaved with it:
 * (a) the floor, a bare S3 PutObject of the same tool.zip followed by a DynamoDB PutItem of an
 * entry-sized item, through the SDK, on the same emulators; (b) Verdaccio's publish of a package
 * of the same bytes (bench/verdaccio.ts). The registry runs in a child process (as `npm start`
 * would), Verdaccio in another; the three kinds take turns in short rounds, so load from elsewhere
 * (bursts of seconds on a shared machine) falls on all alike, and each ratio is the median of the
 * rounds' p50 ratios, with their range. Aim: an upload within 2× of each.
 *
 *   npx tsx bench/upload-sequential.bench.ts      (or: npm run bench upload-sequential)
 */
import { cpus, loadavg } from "node:os";
import { type ServerReady, withLocalRegistry } from "./child-server.js";
import { allSamples, formatRatio, inRounds, roundRatios, roundsOr, timedCalls } from "./interleaved.js";
import { p50p99 } from "./percentiles.js";
import { barePair, newTools, publishToVerdaccio, uploadTool } from "./publish-workload.js";
import { startVerdaccio, VERDACCIO_VERSION } from "./verdaccio.js";

const ROUNDS = roundsOr(30);
const PER_ROUND = 10;
const WARM_UP = 20;
const AIM = 2;

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

await withLocalRegistry(import.meta.url, run);

async function run({ url, token, config }: ServerReady): Promise<void> {
  const verdaccio = await startVerdaccio();
  const count = WARM_UP + ROUNDS * PER_ROUND;
  const tools = { upload: newTools(count, "seq"), pair: newTools(count, "pair"), verdaccio: newTools(count, "vd") };
  const pair = barePair(config);
  const next = { upload: 0, pair: 0, verdaccio: 0 };
  const kinds = {
    upload: () => uploadTool(url, token, tools.upload[next.upload++]!),
    pair: () => pair.write(tools.pair[next.pair++]!),
    verdaccio: () => publishToVerdaccio(verdaccio.url, tools.verdaccio[next.verdaccio++]!),
  };
  type Kind = keyof typeof kinds;
  try {
    for (const kind of Object.keys(kinds) as Kind[]) await timedCalls(WARM_UP, kinds[kind]);
    const rounds = await inRounds(Object.keys(kinds) as Kind[], ROUNDS, (kind) => timedCalls(PER_ROUND, kinds[kind]));

    const row = (name: string, kind: Kind) => {
      const { p50, p99 } = p50p99(allSamples(rounds[kind]));
      const versus = (baseline: Kind) => (baseline === kind ? "1.00×" : formatRatio(roundRatios(rounds[kind], rounds[baseline])));
      return `| ${name} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${versus("pair")} | ${versus("verdaccio")} |`;
    };
    console.log(
      `Sequential publishes, a new tool each: ${ROUNDS} interleaved rounds ` +
        `of ${PER_ROUND} of each kind (${ROUNDS * PER_ROUND} samples each); ` +
        `ratios are the median of the rounds' p50 ratios (their range). Load ` +
        `average (1 min): ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.\n`,
    );
    console.log("| measurement | p50 ms | p99 ms | p50 / bare pair | p50 / Verdaccio |");
    console.log("|---|---:|---:|---:|---:|");
    console.log(row("POST /tools/upload, sequential", "upload"));
    console.log(row("baseline: bare pair, S3 PutObject + DynamoDB PutItem (SDK, same emulators)", "pair"));
    console.log(row(`baseline: Verdaccio ${VERDACCIO_VERSION} publish (PUT /<package>, same bytes)`, "verdaccio"));
    for (const baseline of ["pair", "verdaccio"] as const) {
      const ratio = roundRatios(rounds.upload, rounds[baseline]).median;
      console.log(
        `\nupload / ${baseline === "pair" ? "bare pair" : "Verdaccio"} p50: ` +
          `${ratio.toFixed(2)}× (aim ${AIM}×): ${ratio <= AIM ? "within" : "OVER"}`,
      );
    }
  } finally {
    pair.close();
    await verdaccio.close();
  }
}
