/**
 * Benchmarks run the registry in a child process (as `npm start` would), so the load generator
 * never shares its event loop: `withLocalRegistry(import.meta.url, run)` forks the benchmark's own
 * file with `--serve`, where the same call starts the local registry over fresh emulators in a
 * temp folder and reports its URL, write token and storage config; the parent then runs `run`
 * with them and stops the child (disconnect, then SIGKILL after 5 s).
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { RegistryConfig } from "../functions/config.js";
import type { RouteModule } from "../functions/route-module.js";

/** What the child reports once the registry listens. */
export interface ServerReady {
  url: string;
  token: string;
  config: RegistryConfig;
}

const TOKEN = "bench-token";

/** In the parent: `run` against a registry in a child process. In that child (`--serve`): the registry. */
export async function withLocalRegistry(
  moduleUrl: string,
  run: (ready: ServerReady) => Promise<void>,
  options: { extraRoutes?: RouteModule[] } = {},
): Promise<void> {
  if (process.argv.includes("--serve")) await serve(options.extraRoutes);
  else await withChild(moduleUrl, run);
}

async function serve(extraRoutes: RouteModule[] | undefined): Promise<void> {
  const { startLocalRegistry } = await import("../functions/local/start-local-registry.js");
  const dataDir = await mkdtemp(join(tmpdir(), "agent-tools-bench-"));
  const registry = await startLocalRegistry({ dataDir, port: 0, token: TOKEN, ...(extraRoutes ? { extraRoutes } : {}) });
  process.send!({ url: registry.url, token: TOKEN, config: registry.config } satisfies ServerReady);
  process.once("disconnect", async () => {
    await registry.close();
    await rm(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

async function withChild(moduleUrl: string, run: (ready: ServerReady) => Promise<void>): Promise<void> {
  const server = fork(fileURLToPath(moduleUrl), ["--serve"], {
    execArgv: ["--openssl-legacy-provider", "--import", "tsx"],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  try {
    const ready = await new Promise<ServerReady>((resolve, reject) => {
      server.once("message", (message) => resolve(message as ServerReady));
      server.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    await run(ready);
  } finally {
    await stopServer(server);
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
