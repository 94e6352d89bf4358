import { spawn, type ChildProcess } from "node:child_process";
import type { ToolLauncher } from "../../sandbox/tool-launcher.js";
import { WORKER_SCRIPT_PATH } from "./worker-script.js";

/**
 * Interpreter flags. -B keeps shared cached trees pristine (no __pycache__). The host interpreter
 * also gets -S: `site` processing (.pth files) costs tens of milliseconds per start on a busy
 * interpreter, and the worker adds the host's site-packages itself. A venv needs `site` to find
 * its own packages, and holds nothing else.
 */
export const HOST_PYTHON_ARGS: readonly string[] = ["-S", "-B"];
export const VENV_PYTHON_ARGS: readonly string[] = ["-B"];

/** A started worker process and what to free once it has exited. */
export interface WorkerProcess {
  child: ChildProcess;
  release(): void;
}

/**
 * Starts `python args agent_tools_worker.py` through the tool's launcher (sandboxed or not), with
 * requests on fd 3 and replies on fd 4. Detached: its own process group, so a kill reaches what
 * the tool started even without a sandbox.
 */
export function spawnWorkerProcess(launcher: ToolLauncher, python: string, args: readonly string[], cwd: string): WorkerProcess {
  const launch = launcher.launch([python, ...args, WORKER_SCRIPT_PATH], { cwd, env: { PYTHONIOENCODING: "utf-8" }, passFds: [3, 4] });
  const child = spawn(launch.command, launch.args, {
    stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
    detached: true,
    env: launch.env,
  });
  return { child, release: launch.release };
}
