/**
 * Benchmarks run the registry in a child process (as `npm start` would), so the load generator
 * never shares its event loop: `withLocalRegistry(import.meta.url, run)` forks the benchmark's own
 * file with `--serve`, where the same call starts the local registry over fresh emulators in a
 * temp folder and reports its URL, write token and storage config; the parent then runs `run`
 * with them and stops the child (disconnect, then SIGKILL after 5 s). `startRegistryChild` starts
 * one more such child (a second catalogue beside the first); `seed(n)` fills a child's catalogue
 * with `n` tools in bulk through the storage layer (test/functions/search/seed-catalog.ts).
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RegistryConfig } from "../functions/config.js";
import type { RouteModule } from "../functions/route-module.js";
import { readFixtureSpec } from "../test/support/bundles.js";

/** What the child reports once the registry listens. */
export interface ServerReady {
  url: string;
  token: string;
  config: RegistryConfig;
}

export interface RegistryChild extends ServerReady {
  /** Adds `count` tools (`catalog-00000`, …) to the catalogue in bulk. */
  seed(count: number): Promise<void>;
  stop(): Promise<void>;
}

const TOKEN = "bench-token";
/** `npm start`'s: the search index is rebuilt this long after the last write. */
const SEARCH_INDEX_DELAY_MS = 2_000;

/** In the parent: `run` against a registry in a child process. In that child (`--serve`): the registry. */
export async function withLocalRegistry(
  moduleUrl: string,
  run: (ready: ServerReady) => Promise<void>,
  options: { extraRoutes?: RouteModule[] } = {},
): Promise<void> {
  if (process.argv.includes("--serve")) {
    await serve(options.extraRoutes);
    return;
  }
  const child = await startRegistryChild(moduleUrl);
  try {
    await run(child);
  } finally {
    await child.stop();
  }
}

async function serve(extraRoutes: RouteModule[] | undefined): Promise<void> {
  const { startLocalRegistry } = await import("../functions/local/start-local-registry.js");
  const { seedCatalog } = await import("../test/functions/search/seed-catalog.js");
  const dataDir = await mkdtemp(join(tmpdir(), "agent-tools-bench-"));
  const registry = await startLocalRegistry({
    dataDir,
    port: 0,
    token: TOKEN,
    searchIndexDelayMs: SEARCH_INDEX_DELAY_MS,
    ...(extraRoutes ? { extraRoutes } : {}),
  });
  const spec = readFixtureSpec("text-stats");
  let seeded = 0;
  process.on("message", async (message: { seed?: number }) => {
    if (message.seed === undefined) return;
    const specs = Array.from({ length: message.seed }, (_, i) => ({
      ...spec,
      tool_id: `catalog-${String(seeded + i).padStart(5, "0")}`,
      tool_search_description: `Catalogue tool number ${seeded + i}: counts words, lines and characters of a text.`,
    }));
    seeded += message.seed;
    await seedCatalog(registry, specs);
    // Answered once the catalogue is ready: the index rebuilt (it blocks the event loop for a while
    // at 10,000 tools) and the read cache filled, so no measured case pays for either.
    await new Promise((resolve) => setTimeout(resolve, SEARCH_INDEX_DELAY_MS + 100));
    await registry.searchIndexIdle();
    await Promise.all(
      [fetch(`${registry.url}/tools?limit=50`), fetch(`${registry.url}/tools/${specs[0]!.tool_id}`)].map(async (answer) =>
        (await answer).text(),
      ),
    );
    process.send!({ seeded });
  });
  process.send!({ url: registry.url, token: TOKEN, config: registry.config } satisfies ServerReady);
  process.once("disconnect", async () => {
    await registry.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

export async function startRegistryChild(moduleUrl: string): Promise<RegistryChild> {
  const server = fork(fileURLToPath(moduleUrl), ["--serve"], {
    // BENCH_SERVER_NODE_OPTIONS: more node flags for the server alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/profile".
    execArgv: [
      "--openssl-legacy-provider",
      "--import",
      "tsx",
      ...(process.env.BENCH_SERVER_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? []),
    ],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  try {
    const ready = await new Promise<ServerReady>((resolve, reject) => {
      server.once("message", (message) => resolve(message as ServerReady));
      server.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    return {
      ...ready,
      seed: (count) =>
        new Promise((resolve) => {
          server.once("message", () => resolve());
          server.send({ seed: count });
        }),
      stop: () => stopServer(server),
    };
  } catch (error) {
    await stopServer(server);
    throw error;
  }
}

function stopServer(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.exitCode !== null) return resolve();
    const timer = setTimeout(() => server.kill("SIGKILL"), 5000);
    server.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    server.disconnect();
  });
}
