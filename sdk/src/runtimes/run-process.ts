import { spawn } from "node:child_process";
import { OutputTail } from "./output-tail.js";

export interface ProcessRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export interface RunProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Kill the whole process group after this long (0 = no limit). */
  timeoutMs?: number;
  /** Characters of stdout/stderr kept (the tail); the rest is drained and dropped. */
  outputLimit?: number;
  onOutput?: (stream: "stdout" | "stderr", text: string) => void;
}

const DEFAULT_OUTPUT_LIMIT = 64 * 1024;
/**
 * How long output may still arrive after the command exits. A process it left running outside its
 * group (setsid) can hold the pipes open for ever; past this the run ends without waiting for it.
 */
const EXIT_FLUSH_MS = 100;

/**
 * Runs a command to completion in its own process group, so a timeout kills it and everything it
 * started. Output is drained continuously (a chatty child never blocks) and only its tail is kept.
 * Rejects only when the command cannot be started at all.
 */
export function runProcess(command: string, args: string[], options: RunProcessOptions = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const limit = options.outputLimit ?? DEFAULT_OUTPUT_LIMIT;
    const stdout = new OutputTail(limit);
    const stderr = new OutputTail(limit);
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout.push(text);
      options.onOutput?.("stdout", text);
    });
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      stderr.push(text);
      options.onOutput?.("stderr", text);
    });
    let timedOut = false;
    const timer =
      options.timeoutMs && options.timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            killProcessGroup(child.pid);
          }, options.timeoutMs)
        : undefined;
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      resolve({ exitCode, signal, stdout: stdout.text(), stderr: stderr.text(), timedOut });
    };
    child.once("exit", (exitCode, signal) => {
      const flush = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(exitCode, signal);
      }, EXIT_FLUSH_MS);
      child.once("close", () => {
        clearTimeout(flush);
        finish(exitCode, signal);
      });
    });
  });
}

/** SIGKILL a detached child's whole group; a group that is already gone is fine. */
export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already exited
    }
  }
}
