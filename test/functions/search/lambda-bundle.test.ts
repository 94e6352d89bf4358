// The search, fetch and indexer Lambda bundles as the stack deploys them: built with the stack's
// esbuild options (infra/lambda-bundling.ts), alone in a folder with no node_modules anywhere
// above it, run by the Lambda runtime's Node in a fresh process: the newest 24 we pin, and the
// oldest a nodejs24.x runtime can be (24.0.0, whose node:sqlite cannot serialise: files instead). The readers' first request
// answers from the snapshot the indexer stored plus the revisions logged since; the indexer's
// snapshot opens here (the other SQLite driver). Storage is the real emulators.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CatalogSearch } from "../../../functions/search/catalog-search.js";
import { SearchIndexer, type IndexerRun } from "../../../functions/search/search-indexer.js";
import { searchSources } from "../../../functions/search/search-sources.js";
import { snapshotFile } from "../../../functions/search/snapshot-files.js";
import { ToolSearchIndex, type SearchHit } from "../../../functions/search/tool-search-index.js";
import { lambdaBuildOptions } from "../../../infra/lambda-bundling.js";
import { apiGatewayEvent, resultBytes, type ApiGatewayResult } from "../../support/api-gateway-event.js";
import { lambdaRuntimeNode } from "../../support/lambda-node.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../../support/registry.js";
import { LABELLED_QUERIES, relevanceCatalog } from "./relevance-catalog.js";
import { echoToolBundle, uploadOrThrow } from "./search-bundles.js";
import { seedCatalog } from "./seed-catalog.js";

/** Runs the bundle's `handler` on each event in order, in one process (one warm container), and writes the answers to a file. */
const RUNNER = `
import { readFileSync, writeFileSync } from "node:fs";
const [bundle, eventsFile, answersFile] = process.argv.slice(2);
const { handler } = await import(bundle);
const answers = [];
for (const event of JSON.parse(readFileSync(eventsFile, "utf8"))) answers.push(await handler(event, {}));
writeFileSync(answersFile, JSON.stringify({ node: process.version, answers }));
`;

let registry: TestRegistry;
let workDir: string;
const nodes = {} as Record<LambdaRuntime, string>;
type LambdaRuntime = "newest" | "oldest";
const [edited, deleted] = [relevanceCatalog()[0]!.tool_id, relevanceCatalog()[1]!.tool_id];

/** One cold container of `name` on that runtime's Node, answering `events` in order. */
async function coldLambda<Answer = ApiGatewayResult>(
  runtime: LambdaRuntime,
  name: BundledFunction,
  events: unknown[],
): Promise<{ node: string; answers: Answer[] }> {
  const eventsFile = join(workDir, `${name}-events.json`);
  const answersFile = join(workDir, `${name}-answers.json`);
  await writeFile(eventsFile, JSON.stringify(events));
  // Asynchronously: the emulators it talks to run in this process.
  await promisify(execFile)(nodes[runtime], [join(workDir, "runner.mjs"), join(workDir, name, "index.mjs"), eventsFile, answersFile], {
    cwd: workDir,
    // Only what the stack gives the function (storage here), nothing of this process's Node setup.
    env: { PATH: "/usr/bin:/bin", ...storageEnv(registry), POWERTOOLS_LOG_LEVEL: "SILENT", POWERTOOLS_METRICS_DISABLED: "true" },
    timeout: 60_000,
  });
  return JSON.parse(await readFile(answersFile, "utf8")) as { node: string; answers: Answer[] };
}

const BUNDLED = ["search", "fetch", "indexer"] as const;
type BundledFunction = (typeof BUNDLED)[number];
const gets = (urls: string[]) => urls.map((url) => apiGatewayEvent({ method: "GET", url }));
/** What EventBridge sends on the indexer's schedule. */
const SCHEDULED_EVENT = {
  version: "0",
  id: "test",
  "detail-type": "Scheduled Event",
  source: "aws.events",
  time: new Date().toISOString(),
  resources: [],
  detail: {},
};

const searchUrl = (q: string) => `/tools/search?q=${encodeURIComponent(q)}&limit=10`;
const bodyOf = (answer: ApiGatewayResult) => resultBytes(answer).toString("utf8");

beforeAll(async () => {
  registry = await startTestRegistry({ searchIndexDelayMs: 3_600_000 });
  workDir = await mkdtemp(join(tmpdir(), "agent-tools-lambda-bundle-"));
  await Promise.all([
    seedCatalog(registry.local, relevanceCatalog()),
    ...BUNDLED.map((name) => build(lambdaBuildOptions(name, join(workDir, name, "index.mjs")))),
    writeFile(join(workDir, "runner.mjs"), RUNNER),
  ]);
  nodes.newest = lambdaRuntimeNode("newest");
  nodes.oldest = lambdaRuntimeNode("oldest");

  expect(await new SearchIndexer(searchSources(registry.local.deps)).run()).toMatchObject({
    stored: true,
    tools: relevanceCatalog().length,
  });
  // After the snapshot: an edit that the revision does not announce (a loaded snapshot cannot see
  // it, a scan would), and three that it does (an upload, a PUT, a DELETE: applied from the log).
  const { entries } = registry.local.deps;
  const unannounced = (await entries.reads.getLatest(relevanceCatalog()[2]!.tool_id))!;
  await entries.versions.replaceVersion({
    ...unannounced,
    tool_search_description: "Unannounced edit about walruses",
    updated_at: new Date(Date.parse(unannounced.updated_at) + 1000).toISOString(),
  });
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({ tool_id: "quokka-counter", tool_search_description: "Counts quokkas in wildlife photos" }),
  );
  const write = (method: string, toolId: string, body?: unknown) =>
    fetch(`${registry.url}/tools/${toolId}`, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${registry.token}` },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  expect((await write("PUT", edited, { tool_search_description: "Renders zebra stripes" })).status).toBe(200);
  expect((await write("DELETE", deleted)).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await registry?.close();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

const RUNTIMES = [
  { runtime: "newest", version: /^v24\.22\./ },
  { runtime: "oldest", version: /^v24\.0\.0$/ },
] as const;

describe.each(RUNTIMES)(
  "the deployed bundles, cold, on the $runtime Node a nodejs24.x runtime runs",
  ({ runtime, version: runtimeVersion }) => {
    it("run from a folder with no node_modules anywhere above it", () => {
      for (let dir = workDir; ; dir = dirname(dir)) {
        expect(existsSync(join(dir, "node_modules")), dir).toBe(false);
        if (dirname(dir) === dir) break;
      }
    });

    it("search: answers from the snapshot plus the logged writes, ranking as the local engine does", async () => {
      const queries = [...LABELLED_QUERIES.map(([query]) => query), "quokka", "zebra", "walruses"];
      const { node: version, answers } = await coldLambda(runtime, "search", gets(queries.map(searchUrl)));
      expect(version).toMatch(runtimeVersion);

      // The same snapshot and log, read in this process (Node 20, better-sqlite3). Its SQLite
      // (3.53) drifts slightly in BM25's statistics after deletes from a contentless table, where
      // Node 24's (3.54) equals a fresh build (docs/search.md): the same order, scores within 2%.
      const local = new CatalogSearch(searchSources(registry.local.deps), 0);
      for (const [i, query] of queries.entries()) {
        expect(answers[i]!.statusCode, query).toBe(200);
        const { results } = JSON.parse(bodyOf(answers[i]!)) as { results: SearchHit[] };
        const expected = await local.search({ q: query, limit: 10 });
        expect(
          results.map(({ score, ...hit }) => hit),
          query,
        ).toEqual(expected.map(({ score, ...hit }) => hit));
        for (const [rank, hit] of results.entries()) expect(Math.abs(hit.score / expected[rank]!.score - 1), query).toBeLessThan(0.02);
      }
      const idsOf = (i: number) =>
        (JSON.parse(bodyOf(answers[i]!)) as { results: { tool_id: string }[] }).results.map((hit) => hit.tool_id);
      const at = (query: string) => queries.indexOf(query);
      expect(idsOf(at("quokka"))).toEqual(["quokka-counter"]);
      expect(idsOf(at("zebra"))).toEqual([edited]);
      expect(idsOf(at("walruses"))).toEqual([]); // from the snapshot: the table was not scanned
      expect(answers.flatMap((_, i) => idsOf(i))).not.toContain(deleted);
      expect(idsOf(at(LABELLED_QUERIES[0]![0]))).toContain(LABELLED_QUERIES[0]![1]);
    });

    it("fetch: the web catalogue's search (/?q=) answers from the same snapshot", async () => {
      const { answers } = await coldLambda(runtime, "fetch", gets(["/?q=quokka", "/?q=zebra+stripes", "/?q=walruses"]));
      const [quokka, zebra, walruses] = answers.map((answer) => ({ status: answer.statusCode, html: bodyOf(answer) }));
      expect(quokka).toMatchObject({ status: 200 });
      expect(quokka!.html).toContain("quokka-counter");
      expect(zebra!.html).toContain(edited);
      expect(walruses!.status).toBe(200);
      expect(walruses!.html).not.toContain(relevanceCatalog()[2]!.tool_id);
    });

    it("indexer: stores a snapshot (node:sqlite's file) that opens in this process's driver and ranks as the readers did", async () => {
      const { snapshots } = searchSources(registry.local.deps);
      const before = await snapshots.latestRevision();
      // Something new for this runtime's indexer to store.
      const marked = relevanceCatalog()[3]!.tool_id;
      const edit = await fetch(`${registry.url}/tools/${marked}`, {
        method: "PUT",
        headers: { "content-type": "application/json", authorization: `Bearer ${registry.token}` },
        body: JSON.stringify({ tool_search_description: `Indexed by the ${runtime}runtime` }),
      });
      expect(edit.status).toBe(200);
      const { node: version, answers } = await coldLambda<IndexerRun>(runtime, "indexer", [SCHEDULED_EVENT, SCHEDULED_EVENT]);
      expect(version).toMatch(runtimeVersion);
      const log = await registry.local.deps.entries.revision.readRevisionLog();
      expect(answers[0]).toMatchObject({ revision: log.revision, tools: relevanceCatalog().length, stored: true });
      expect(answers[0]!.revision).toBeGreaterThan(before!);
      expect(answers[1]).toMatchObject({ revision: log.revision, stored: false }); // warm, nothing new
      expect(await snapshots.latestRevision()).toBe(log.revision);
      const snapshot = (await snapshots.download(log.revision, snapshotFile()))!;
      expect(snapshot.revision).toBe(log.revision);
      const index = ToolSearchIndex.openFile(snapshot.file);
      expect(index.revision).toBe(log.revision);
      expect(index.search({ q: "quokka", limit: 10 }).map((hit) => hit.tool_id)).toEqual(["quokka-counter"]);
      expect(index.search({ q: "zebra", limit: 10 }).map((hit) => hit.tool_id)).toEqual([edited]);
      expect(index.search({ q: "walruses", limit: 10 })).toEqual([]); // it caught up from the previous snapshot, not a scan
      expect(index.search({ q: `${runtime}runtime`, limit: 10 }).map((hit) => hit.tool_id)).toEqual([marked]);
      index.close();
    });
  },
);
