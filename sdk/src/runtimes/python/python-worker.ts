import type { ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { OutputTail } from "../output-tail.js";
import { killProcessGroup } from "../run-process.js";
import { ToolLoadError } from "../../tool-load-error.js";
import { ToolCrashedError, ToolEnvironmentError, ToolTimeoutError } from "../runtime-errors.js";
import type { ToolOutputListener } from "../tool-runtime.js";
import { processEnd, type ToolLauncher } from "../../sandbox/tool-launcher.js";
import { spawnWorkerProcess } from "./worker-process.js";
import { ExitCleanup } from "../../sandbox/exit-cleanup.js";

/** The first message: what to import and how to construct it (see agent_tools_worker.py). */
export interface WorkerInit {
  code_dir: string;
  module_name: string;
  tool_id: string;
  tool_data: unknown;
  extra_paths: string[];
}

export interface PythonWorkerSpec {
  toolId: string;
  python: string;
  pythonArgs: readonly string[];
  /** Starts the process: inside the tool's sandbox, or plainly. */
  launcher: ToolLauncher;
  /** The worker's working directory (the tool's state folder). */
  cwd: string;
  init: WorkerInit;
  /** Characters of stdout/stderr kept for error messages. */
  outputLimit: number;
  onOutput: ToolOutputListener | undefined;
}

export interface WorkerReply {
  ok: boolean;
  value?: unknown;
  error?: {
    kind: "load" | "tool" | "output" | "protocol";
    type: string;
    message: string;
    traceback: string;
    errno?: number;
    filename?: string;
  };
}

interface PendingRequest {
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
}

/** How long a dying worker may take to flush stderr before its crash is reported. */
const EXIT_FLUSH_MS = 100;
/** How long `close()` waits for a worker to leave on its own (its fd 3 closed) before killing it. */
const GRACEFUL_EXIT_MS = 1_000;

/** Workers are detached (own process group), so they are killed explicitly when the agent exits. */
const live = new ExitCleanup<PythonWorker>((worker) => worker.kill());

/**
 * One persistent Python process hosting one tool. Requests go out on fd 3 and replies come back on
 * fd 4 (one JSON line each), so stdout/stderr stay free for the tool's own prints, which are drained
 * into a bounded tail. One request at a time: the runtime queues calls.
 */
export class PythonWorker {
  private readonly child: ChildProcess;
  private readonly requests: Writable;
  private readonly replies: Readable;
  private readonly stderr: OutputTail;
  /** Text of a reply line still arriving. */
  private partial: string[] = [];
  private pending: PendingRequest | undefined;
  private exited = false;
  /** Set the moment we kill it: the exit event comes later, and no request may go out in between. */
  private killed = false;

  private constructor(private readonly spec: PythonWorkerSpec) {
    const started = spawnWorkerProcess(spec.launcher, spec.python, spec.pythonArgs, spec.cwd);
    this.child = started.child;
    this.child.once("close", () => started.release());
    this.requests = this.child.stdio[3] as Writable;
    this.replies = this.child.stdio[4] as Readable;
    this.stderr = new OutputTail(spec.outputLimit);
    this.requests.on("error", () => undefined); // EPIPE after a crash; the exit handler reports it
    this.replies.setEncoding("utf8").on("data", (text: string) => this.onReplyData(text));
    this.drain(this.child.stdout, "stdout", undefined);
    this.drain(this.child.stderr, "stderr", this.stderr);
    this.child.once("error", (error) => this.onSpawnError(error));
    this.child.once("exit", (code, signal) => {
      const end = processEnd(spec.launcher, code, signal);
      this.onExit(end.exitCode, end.signal);
    });
    // An idle worker must not keep the agent's process alive; `request` re-refs while a call runs.
    this.child.unref();
    for (const stream of this.child.stdio) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    live.add(this);
  }

  /** Starts the process and constructs the tool; load failures reject with `ToolLoadError`. */
  static async start(spec: PythonWorkerSpec, timeoutMs: number): Promise<PythonWorker> {
    const worker = new PythonWorker(spec);
    const reply = await worker.request(JSON.stringify(spec.init), timeoutMs);
    if (!reply.ok) {
      worker.kill();
      const error = reply.error;
      const python = error && { type: error.type, message: error.message, traceback: error.traceback };
      throw new ToolLoadError(spec.toolId, error ? `${error.type}: ${error.message}` : "the worker refused to start", {
        ...(python ? { python } : {}),
      });
    }
    return worker;
  }

  get alive(): boolean {
    return !this.exited && !this.killed;
  }

  /** Sends one JSON line and waits for its reply; kills the worker when `timeoutMs` (>0) passes. */
  request(payload: string, timeoutMs: number): Promise<WorkerReply> {
    return new Promise((resolve, reject) => {
      if (!this.alive) {
        reject(new ToolCrashedError(this.spec.toolId, this.child.exitCode, this.child.signalCode, this.stderr.text()));
        return;
      }
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.pending = undefined;
              this.kill();
              reject(new ToolTimeoutError(this.spec.toolId, timeoutMs));
            }, timeoutMs)
          : undefined;
      this.pending = { resolve, reject, timer };
      (this.replies as unknown as { ref(): void }).ref();
      this.requests.write(`${payload}\n`);
    });
  }

  /** Lets the worker finish on its own (end of fd 3), killing it if it lingers. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.requests.end();
    const timer = setTimeout(() => this.kill(), GRACEFUL_EXIT_MS);
    await exited;
    clearTimeout(timer);
  }

  kill(): void {
    this.killed = true;
    killProcessGroup(this.child.pid);
  }

  /** Splits replies on newlines, scanning each chunk once (a 30 MB reply arrives in hundreds of chunks). */
  private onReplyData(text: string): void {
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      const tail = text.slice(start, newline);
      if (this.partial.length === 0)
        this.deliver(tail); // the usual case: a whole reply in one chunk
      else {
        this.partial.push(tail);
        const line = this.partial.join("");
        this.partial = [];
        this.deliver(line);
      }
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (start < text.length) this.partial.push(text.slice(start));
  }

  private deliver(line: string): void {
    this.settle((pending) => {
      try {
        pending.resolve(JSON.parse(line) as WorkerReply);
      } catch (error) {
        pending.reject(new ToolCrashedError(this.spec.toolId, null, null, `unreadable reply from the worker: ${String(error)}`));
      }
    });
  }

  private settle(action: (pending: PendingRequest) => void): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    (this.replies as unknown as { unref(): void }).unref();
    action(pending);
  }

  private drain(stream: Readable | null, name: "stdout" | "stderr", tail: OutputTail | undefined): void {
    stream?.setEncoding("utf8").on("data", (text: string) => {
      tail?.push(text);
      this.spec.onOutput?.(this.spec.toolId, name, text);
    });
  }

  private onSpawnError(error: Error): void {
    this.exited = true;
    live.delete(this);
    this.settle((pending) =>
      pending.reject(
        new ToolEnvironmentError(this.spec.toolId, `cannot start Python worker "${this.spec.python}": ${error.message}`, error),
      ),
    );
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    live.delete(this);
    if (this.pending === undefined) return;
    // Give the pipes a moment so the crash report carries the tool's last stderr lines.
    const report = () => this.settle((pending) => pending.reject(new ToolCrashedError(this.spec.toolId, code, signal, this.stderr.text())));
    const timer = setTimeout(report, EXIT_FLUSH_MS);
    this.child.once("close", () => {
      clearTimeout(timer);
      report();
    });
  }
}
