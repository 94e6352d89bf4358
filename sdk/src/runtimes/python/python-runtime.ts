import { createHash } from "node:crypto";
import { SandboxDeniedError } from "../../sandbox/sandbox-errors.js";
import { toJsonPayload } from "../json-payload.js";
import { explainCrash } from "../crash-denial.js";
import { ToolClosedError, ToolExecutionError, ToolOutputError } from "../runtime-errors.js";
import type { ToolLauncher } from "../../sandbox/tool-launcher.js";
import type { ToolOutputListener, ToolRuntime } from "../tool-runtime.js";
import { PythonWorker, type PythonWorkerSpec, type WorkerReply } from "./python-worker.js";
import { HOST_PYTHON_ARGS, VENV_PYTHON_ARGS } from "./worker-process.js";

export interface PythonToolOptions {
  toolId: string;
  /** The folder holding function.py (the tool's `code/`). */
  codeDir: string;
  /** The full record with merged parameters, given to `AgentSpaceV1Tool(tool_id, tool_data)`. */
  record: unknown;
  /** A real interpreter: the host's resolved executable, or a requirements venv's python. */
  python: string;
  /** True for the host interpreter: start without `site` (fast) and add its site-packages plainly. */
  hostInterpreter: boolean;
  hostSitePaths: string[];
  callTimeoutMs: number;
  /** Importing and constructing the tool (at first call, and after a restart or an idle stop). */
  loadTimeoutMs: number;
  /** Stop the worker after this long without a call (0 = keep it); the next call starts it again. */
  idleTimeoutMs: number;
  outputLimit: number;
  onOutput: ToolOutputListener | undefined;
  /** The tool's launcher (decided at the first start, then the same one: the caller memoises it). */
  launcher: () => Promise<ToolLauncher>;
  /**
   * Prepares what the worker needs (its requirements venv) once the launcher is decided, so a
   * tool whose capabilities or definition are refused never installs anything; at every start
   * (a venv already built returns at once), and again after a failure.
   */
  prepare?: (() => Promise<void>) | undefined;
}

/**
 * A Python tool behind a persistent worker, started on the first call (or `start()`), stopped
 * after `idleTimeoutMs` without calls. Calls are queued one at a time; a worker that crashed, was
 * killed by a timeout or hit a sandbox limit is started again on the next call (the tool is
 * constructed anew; what it keeps in its state folder survives).
 */
export class PythonToolRuntime implements ToolRuntime {
  readonly kind = "python";
  private worker: PythonWorker | undefined;
  private starting: Promise<PythonWorker> | undefined;
  private launcher: ToolLauncher | undefined;
  private closed = false;
  /** One call at a time: `busy` while a call runs, later callers wait in `waiting` (FIFO). */
  private busy = false;
  private readonly waiting: Array<() => void> = [];
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: PythonToolOptions) {}

  /** Whether a worker process is running now. */
  get running(): boolean {
    return this.worker?.alive === true;
  }

  /** Starts the worker and constructs the tool ahead of the first call; load errors reject here. */
  async start(): Promise<void> {
    await this.ensureWorker();
    this.armIdleTimer();
  }

  execute(input: unknown): Promise<unknown> {
    return this.call(() => toJsonPayload(this.options.toolId, { op: "execute", input: input ?? {} }));
  }

  executeCommand(command: string, data: unknown): Promise<unknown> {
    return this.call(() => toJsonPayload(this.options.toolId, { op: "command", name: command, data: data ?? {} }));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    const worker = this.worker ?? (await this.starting?.catch(() => undefined));
    this.worker = undefined;
    await worker?.close(); // a call already running gets a second to finish before the worker is killed
  }

  private async call(encode: () => string): Promise<unknown> {
    const payload = encode();
    if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy = true;
    clearTimeout(this.idleTimer);
    try {
      return await this.send(payload);
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) {
        this.busy = false;
        this.armIdleTimer();
      } else next(); // hand the turn over directly: `busy` stays set
    }
  }

  private async send(payload: string): Promise<unknown> {
    const worker = await this.ensureWorker();
    await this.launcher?.admitCall();
    let reply: WorkerReply;
    try {
      reply = await worker.request(payload, this.options.callTimeoutMs);
    } catch (error) {
      throw explainCrash(this.options.toolId, this.launcher, error);
    }
    if (reply.ok) return reply.value;
    throw this.errorFromReply(reply, worker);
  }

  /** The running worker, or one started now (concurrent callers share one start). */
  private async ensureWorker(): Promise<PythonWorker> {
    if (this.closed) throw new ToolClosedError(this.options.toolId);
    if (this.worker?.alive) return this.worker;
    this.starting ??= this.startWorker().finally(() => (this.starting = undefined));
    const worker = await this.starting;
    if (this.closed) {
      worker.kill(); // closed while it started: never leave a worker nobody owns
      throw new ToolClosedError(this.options.toolId);
    }
    this.worker = worker;
    return worker;
  }

  private async startWorker(): Promise<PythonWorker> {
    this.launcher = await this.options.launcher();
    await this.options.prepare?.();
    return PythonWorker.start(this.spec(this.launcher), this.options.loadTimeoutMs);
  }

  private spec(launcher: ToolLauncher): PythonWorkerSpec {
    const { options } = this;
    return {
      toolId: options.toolId,
      python: options.python,
      pythonArgs: options.hostInterpreter ? HOST_PYTHON_ARGS : VENV_PYTHON_ARGS,
      launcher,
      cwd: launcher.stateDir,
      init: {
        code_dir: options.codeDir,
        module_name: moduleNameFor(options.toolId, options.codeDir),
        tool_id: options.toolId,
        tool_data: options.record,
        extra_paths: options.hostInterpreter ? options.hostSitePaths : [],
      },
      outputLimit: options.outputLimit,
      onOutput: options.onOutput,
    };
  }

  /** An idle worker costs a process and its memory: stop it; the next call starts another. */
  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    if (this.options.idleTimeoutMs <= 0 || this.worker === undefined) return;
    this.idleTimer = setTimeout(() => {
      if (this.busy) return;
      const worker = this.worker;
      this.worker = undefined;
      void worker?.close();
    }, this.options.idleTimeoutMs);
    this.idleTimer.unref();
  }

  private errorFromReply(reply: WorkerReply, worker: PythonWorker): Error {
    const { toolId } = this.options;
    const error = reply.error ?? { kind: "protocol", type: "Error", message: "reply without error details", traceback: "" };
    const python = { type: error.type, message: error.message, traceback: error.traceback };
    if (error.kind === "output") return new ToolOutputError(toolId, error.message);
    const denial = this.launcher?.explain({
      type: error.type,
      message: error.message,
      traceback: error.traceback,
      errno: error.errno,
      filename: error.filename,
    });
    if (denial !== undefined) {
      // A tool that hit a limit may have left processes or memory behind: restart it clean next time.
      if (denial.capability.startsWith("limits.")) worker.kill();
      return new SandboxDeniedError(toolId, denial.capability, `${error.type}: ${error.message}`, denial.fix);
    }
    return new ToolExecutionError(toolId, `${error.type}: ${error.message}`, { python });
  }
}

/** Unique per tool and folder, a valid identifier, never one shared "function" (docs/design/compatibility.md#module-names). */
function moduleNameFor(toolId: string, codeDir: string): string {
  const readable = toolId.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 40);
  const digest = createHash("sha256").update(`${toolId}\0${codeDir}`).digest("hex").slice(0, 8);
  return `agent_tool_${readable}_${digest}`;
}
