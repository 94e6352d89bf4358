import { createHash } from "node:crypto";
import { toJsonPayload } from "../json-payload.js";
import { ToolClosedError, ToolExecutionError, ToolOutputError } from "../runtime-errors.js";
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
  /** Importing and constructing the tool (at add, and after a restart). */
  loadTimeoutMs: number;
  outputLimit: number;
  onOutput: ToolOutputListener | undefined;
}

/**
 * A Python tool behind a persistent worker. Calls are queued one at a time; a worker that crashed or
 * was killed by a timeout is started again on the next call (the tool is constructed anew).
 */
export class PythonToolRuntime implements ToolRuntime {
  readonly kind = "python";
  private worker: PythonWorker | undefined;
  private closed = false;
  /** One call at a time: `busy` while a call runs, later callers wait in `waiting` (FIFO). */
  private busy = false;
  private readonly waiting: Array<() => void> = [];
  private readonly spec: PythonWorkerSpec;

  private constructor(private readonly options: PythonToolOptions) {
    this.spec = {
      toolId: options.toolId,
      python: options.python,
      pythonArgs: options.hostInterpreter ? HOST_PYTHON_ARGS : VENV_PYTHON_ARGS,
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

  /** Starts the worker and constructs the tool, so load errors surface at `add`. */
  static async start(options: PythonToolOptions): Promise<PythonToolRuntime> {
    const runtime = new PythonToolRuntime(options);
    runtime.worker = await PythonWorker.start(runtime.spec, options.loadTimeoutMs);
    return runtime;
  }

  execute(input: unknown): Promise<unknown> {
    return this.call(() => toJsonPayload(this.options.toolId, { op: "execute", input: input ?? {} }));
  }

  executeCommand(command: string, data: unknown): Promise<unknown> {
    return this.call(() => toJsonPayload(this.options.toolId, { op: "command", name: command, data: data ?? {} }));
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.close(); // a call already running gets a second to finish before the worker is killed
  }

  private async call(encode: () => string): Promise<unknown> {
    const payload = encode();
    if (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.busy = true;
    try {
      return await this.send(payload);
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.busy = false;
      else next(); // hand the turn over directly: `busy` stays set
    }
  }

  private async send(payload: string): Promise<unknown> {
    if (this.closed) throw new ToolClosedError(this.options.toolId);
    if (this.worker === undefined || !this.worker.alive) {
      const restarted = await PythonWorker.start(this.spec, this.options.loadTimeoutMs);
      if (this.closed) {
        restarted.kill(); // closed while it started: never leave a worker nobody owns
        throw new ToolClosedError(this.options.toolId);
      }
      this.worker = restarted;
    }
    const reply = await this.worker.request(payload, this.options.callTimeoutMs);
    if (reply.ok) return reply.value;
    throw errorFromReply(this.options.toolId, reply);
  }
}

function errorFromReply(toolId: string, reply: WorkerReply): Error {
  const error = reply.error ?? { kind: "protocol", type: "Error", message: "reply without error details", traceback: "" };
  const python = { type: error.type, message: error.message, traceback: error.traceback };
  if (error.kind === "output") return new ToolOutputError(toolId, error.message);
  return new ToolExecutionError(toolId, `${error.type}: ${error.message}`, { python });
}

/** Unique per tool and folder, a valid identifier, never the seed's shared "function" (B14). */
function moduleNameFor(toolId: string, codeDir: string): string {
  const readable = toolId.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 40);
  const digest = createHash("sha256").update(`${toolId}\0${codeDir}`).digest("hex").slice(0, 8);
  return `agent_tool_${readable}_${digest}`;
}
