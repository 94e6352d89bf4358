import { spawn, type ChildProcess } from "node:child_process";
import { killProcessGroup } from "../run-process.js";
import { WORKER_SCRIPT_PATH } from "./worker-script.js";

/**
 * Interpreter flags. -B keeps shared cached trees pristine (no __pycache__). The host interpreter
 * also gets -S: `site` processing (.pth files) costs tens of milliseconds per start on a busy
 * interpreter, and the worker adds the host's site-packages itself. A venv needs `site` to find
 * its own packages, and holds nothing else.
 */
export const HOST_PYTHON_ARGS: readonly string[] = ["-S", "-B"];
export const VENV_PYTHON_ARGS: readonly string[] = ["-B"];

/** At most one started, not yet initialised worker process per interpreter and flags. */
const spares = new Map<string, ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts a worker process ahead of need (while an archive downloads, say), so a later
 * `takeWorkerProcess` skips the interpreter's start-up. It waits for its first message and costs
 * nothing else; it never keeps the agent's process alive and dies with it.
 */
export function prestartWorkerProcess(python: string, args: readonly string[]): void {
  const key = spareKey(python, args);
  const spare = spares.get(key);
  if (spare !== undefined && isUsable(spare)) return;
  const child = spawnWorker(python, args);
  for (const stream of child.stdio) (stream as unknown as { unref?: () => void } | null)?.unref?.();
  child.unref();
  child.once("exit", () => {
    if (spares.get(key) === child) spares.delete(key);
  });
  spares.set(key, child);
  installExitHook();
}

/** A worker process for `python` with `args`: the prestarted one if there is one, else a new one. */
export function takeWorkerProcess(python: string, args: readonly string[]): ChildProcess {
  const key = spareKey(python, args);
  const spare = spares.get(key);
  spares.delete(key);
  return spare !== undefined && isUsable(spare) ? spare : spawnWorker(python, args);
}

function spawnWorker(python: string, args: readonly string[]): ChildProcess {
  return spawn(python, [...args, WORKER_SCRIPT_PATH], {
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
    detached: true, // its own process group, so a timeout also kills whatever the tool started
    env: { ...process.env, PYTHONIOENCODING: "utf-8" },
  });
}

function isUsable(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

function spareKey(python: string, args: readonly string[]): string {
  return `${python}\0${args.join("\0")}`;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const child of spares.values()) killProcessGroup(child.pid);
  });
}
