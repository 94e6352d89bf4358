/**
 * Benchmarks run the registry in a child process (as `npm start` would), so the load generator
 * never shares its event loop: `withChildServer(import.meta.url, run)` forks the benchmark's own
 * file with `--serve`, waits for the first message it sends (what to measure against), runs
 * `run` with it, and stops the child (disconnect, then SIGKILL after 5 s).
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export async function withChildServer<T>(moduleUrl: string, run: (ready: T) => Promise<void>): Promise<void> {
  const server = fork(fileURLToPath(moduleUrl), ["--serve"], {
    execArgv: ["--openssl-legacy-provider", "--import", "tsx"],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });
  try {
    const ready = await new Promise<T>((resolve, reject) => {
      server.once("message", (message) => resolve(message as T));
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
