import { constants as fsConstants, existsSync } from "node:fs";
import { access } from "node:fs/promises";
import { SandboxDeniedError } from "../../sandbox/sandbox-errors.js";
import { processEnd, type ToolLauncher } from "../../sandbox/tool-launcher.js";
import { explainCrash } from "../crash-denial.js";
import { toJsonPayload } from "../json-payload.js";
import { runProcess, type ProcessRun } from "../run-process.js";
import {
  ToolClosedError,
  ToolCrashedError,
  ToolEnvironmentError,
  ToolExecutionError,
  ToolInputError,
  ToolOutputError,
  ToolTimeoutError,
} from "../runtime-errors.js";
import type { ToolOutputListener, ToolRuntime } from "../tool-runtime.js";
import { CALL_FILES, Outbox, type CallFolder } from "./call-folder.js";
import { LAUNCHER_SHELL } from "./launcher-script.js";
import { readToolFile, ToolFileRefused } from "./read-tool-file.js";
import { WarmSandbox } from "./warm-sandbox.js";

export interface BinaryToolOptions {
  toolId: string;
  executable: string;
  /** The tool folder (holding `code/`); the binary runs there. */
  toolDir: string;
  /** The full record with merged parameters, sent as `tool_data`. */
  record: unknown;
  callTimeoutMs: number;
  /** Characters of stdout/stderr kept for error messages. */
  outputLimit: number;
  onOutput: ToolOutputListener | undefined;
  /** The tool's launcher (decided at the first call, then the same one: the caller memoises it). */
  launcher: () => Promise<ToolLauncher>;
  /** The largest output file read, in bytes; a larger one is a ToolOutputError. Default 16 MiB. */
  outputFileLimitBytes?: number;
  /** Stop the warm sandbox after this long without calls (0 = keep it); the next call starts another. Default 5 min. */
  idleTimeoutMs?: number;
}

/** The fixed answer: binaries have no management commands (docs/design/compatibility.md#binary-contract). */
export const BINARY_COMMAND_REPLY = Object.freeze({
  success: false,
  message: "management commands not available for binaries",
});

export const DEFAULT_OUTPUT_FILE_LIMIT_BYTES = 16 * 1024 * 1024;

/** `outputFileLimitBytes` as given to `AgentTools`, checked once: a positive whole number of bytes. */
export function resolveOutputFileLimit(value: number | undefined): number {
  if (value === undefined) return DEFAULT_OUTPUT_FILE_LIMIT_BYTES;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new RangeError(
      `outputFileLimitBytes must be a positive integer (bytes), got ${String(value)}; the default is ${DEFAULT_OUTPUT_FILE_LIMIT_BYTES}.`,
    );
  }
  return value;
}
const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/** Linux refuses a single argument this long or longer (MAX_ARG_STRLEN, its NUL included). */
const MAX_ARGUMENT_BYTES = 128 * 1024;
/** Without bash (a minimal image) a sandboxed tool still runs, in a sandbox per call. */
const HAS_LAUNCHER_SHELL = existsSync(LAUNCHER_SHELL);

/**
 * A binary tool under the binary contract (docs/design/compatibility.md#binary-contract):
 * `code/<exe> '<request-json>' <output-file>`, where the request is `{"tool_id", "tool_data",
 * "mode": "input", "input"}` and the result is the JSON the binary writes to the output file.
 * Each call gets a fresh folder in the runtime's outbox, read through a held descriptor
 * (docs/sandbox.md#tool-output). Sandboxed, calls go to one warm sandbox per tool, started on the
 * first call and stopped when idle (docs/sandbox.md#binary-tools); unsandboxed, each call is a
 * process of the agent's.
 */
export class BinaryToolRuntime implements ToolRuntime {
  readonly kind = "binary";
  private outbox: Promise<Outbox> | undefined;
  /** The warm sandbox new calls go to. */
  private sandbox: WarmSandbox | undefined;
  /** Every warm sandbox still running (a retired one finishes its calls), for `close()`. */
  private readonly sandboxes = new Set<WarmSandbox>();
  /** Set once the launcher showed it cannot hand this tool its environment: a sandbox per call. */
  private perCallSandbox = !HAS_LAUNCHER_SHELL;
  private running = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: BinaryToolOptions) {}

  async execute(input: unknown): Promise<unknown> {
    const { toolId, callTimeoutMs } = this.options;
    if (this.closed) throw new ToolClosedError(toolId);
    const request = toJsonPayload(toolId, { tool_id: toolId, tool_data: this.options.record, mode: "input", input: input ?? {} });
    const deadline = callTimeoutMs > 0 ? performance.now() + callTimeoutMs : Number.POSITIVE_INFINITY;
    const launcher = await this.options.launcher();
    await launcher.admitCall();
    const call = await this.openCall(request);
    this.running++;
    clearTimeout(this.idleTimer);
    try {
      const { run, sandbox } = await this.run(launcher, call, request, deadline);
      const end = { ...run, ...processEnd(launcher, run.exitCode, run.signal) };
      if (end.timedOut) throw new ToolTimeoutError(toolId, callTimeoutMs);
      const denial = end.exitCode === 0 ? undefined : launcher.explain({ message: "", signal: end.signal, stderr: end.stderr });
      if (denial !== undefined) {
        // A call that hit a limit may have left processes behind: the next call gets a clean sandbox.
        if (denial.capability.startsWith("limits.")) sandbox?.retire();
        throw new SandboxDeniedError(toolId, denial.capability, end.stderr, denial.fix);
      }
      if (end.signal !== null) throw new ToolCrashedError(toolId, null, end.signal, end.stderr);
      if (end.exitCode !== 0) {
        const stderr = end.stderr.trim();
        throw new ToolExecutionError(
          toolId,
          `the binary exited with code ${end.exitCode}${stderr ? `: ${stderr.slice(-2000)}` : " and wrote nothing to stderr"}`,
          { exitCode: end.exitCode ?? -1, stderr: end.stderr },
        );
      }
      return await this.readResult(call, deadline);
    } finally {
      call.remove();
      this.running--;
      this.armIdleTimer();
    }
  }

  async executeCommand(): Promise<unknown> {
    return { ...BINARY_COMMAND_REPLY };
  }

  /** Stops the warm sandboxes (a call still running fails with ToolClosedError) and removes the outbox. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    this.sandbox = undefined;
    await Promise.all([...this.sandboxes].map((sandbox) => sandbox.close()));
    const outbox = await this.outbox?.catch(() => undefined);
    this.outbox = undefined;
    outbox?.remove();
  }

  private async openCall(request: string): Promise<CallFolder> {
    if (this.closed) throw new ToolClosedError(this.options.toolId); // closed while the launcher was decided
    this.outbox ??= Outbox.create();
    const outbox = await this.outbox;
    try {
      return outbox.open(request);
    } catch (error) {
      throw new ToolEnvironmentError(
        this.options.toolId,
        `cannot prepare the call's folder in ${outbox.path}: ${(error as Error).message}`,
        error,
      );
    }
  }

  private async run(
    launcher: ToolLauncher,
    call: CallFolder,
    request: string,
    deadline: number,
  ): Promise<{ run: ProcessRun; sandbox?: WarmSandbox | undefined }> {
    // A sandbox starts its own launcher first, so an unexecutable tool would only show as its exit code.
    if (launcher.sandboxed) await access(this.options.executable, fsConstants.X_OK).catch((error: unknown) => this.cannotRun(error));
    const sandbox = launcher.sandboxed ? await this.warmSandbox(launcher) : undefined;
    if (sandbox === undefined) return { run: await this.runOnce(launcher, call, request) };
    if (Buffer.byteLength(request) >= MAX_ARGUMENT_BYTES) throw this.requestTooLong(request);
    const end = await sandbox.run(call.id, this.options.callTimeoutMs).catch((error: unknown) => {
      throw explainCrash(this.options.toolId, launcher, error);
    });
    const [stdout, stderr] = await Promise.all([this.printed(call, "stdout", deadline), this.printed(call, "stderr", deadline)]);
    return { run: { ...end, stdout, stderr }, sandbox };
  }

  /** One process for this call: unsandboxed, or a sandbox of its own whose only writable extra is the call's folder. */
  private async runOnce(launcher: ToolLauncher, call: CallFolder, request: string): Promise<ProcessRun> {
    const { toolId, executable, toolDir } = this.options;
    const launch = launcher.launch([executable, request, call.pathOf(CALL_FILES.output)], { cwd: toolDir, env: {}, writable: [call.path] });
    try {
      return await runProcess(launch.command, launch.args, {
        env: launch.env,
        cwd: toolDir,
        timeoutMs: this.options.callTimeoutMs,
        outputLimit: this.options.outputLimit,
        onOutput: (stream, text) => this.options.onOutput?.(toolId, stream, text),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "E2BIG") throw this.requestTooLong(request, error);
      return this.cannotRun(error);
    } finally {
      launch.release();
    }
  }

  /** The warm sandbox, started now if none takes calls; undefined when this tool runs in a sandbox per call. */
  private async warmSandbox(launcher: ToolLauncher): Promise<WarmSandbox | undefined> {
    const outbox = await this.outbox!;
    // After the await: a call that arrived meanwhile may have started one already.
    if (this.perCallSandbox) return undefined;
    if (this.sandbox?.accepting) return this.sandbox;
    const started = WarmSandbox.start({
      toolId: this.options.toolId,
      launcher,
      executable: this.options.executable,
      toolDir: this.options.toolDir,
      outbox: outbox.path,
      outputLimit: this.options.outputLimit,
    });
    if (started === undefined) {
      this.perCallSandbox = true;
      return undefined;
    }
    this.sandbox = started;
    this.sandboxes.add(started);
    void started.gone.then(() => this.sandboxes.delete(started));
    return started;
  }

  /** What a warm call printed on one stream: the last `outputLimit` bytes of its file, handed to `onOutput`. */
  private async printed(call: CallFolder, stream: "stdout" | "stderr", deadline: number): Promise<string> {
    const text = await readToolFile(call.at(CALL_FILES[stream]), { maxBytes: this.options.outputLimit, keep: "tail", deadline }).then(
      (bytes) => bytes.toString("utf8"),
      () => "", // none, or not a file the tool may hand us
    );
    if (text !== "") this.options.onOutput?.(this.options.toolId, stream, text);
    return text;
  }

  private async readResult(call: CallFolder, deadline: number): Promise<unknown> {
    const { toolId } = this.options;
    const limit = this.options.outputFileLimitBytes ?? DEFAULT_OUTPUT_FILE_LIMIT_BYTES;
    let text: string;
    try {
      text = (await readToolFile(call.at(CALL_FILES.output), { maxBytes: limit, keep: "head", deadline })).toString("utf8");
    } catch (error) {
      throw this.outputError(error, limit);
    }
    try {
      return JSON.parse(text);
    } catch {
      // Only a short, escaped prefix of what the tool wrote: never more of a file it may have pointed us at.
      throw new ToolOutputError(
        toolId,
        `the output file is not valid JSON (${text.length} characters starting ${JSON.stringify(text.slice(0, 100))})`,
      );
    }
  }

  private outputError(error: unknown, limit: number): Error {
    const { toolId } = this.options;
    if (!(error instanceof ToolFileRefused)) {
      return new ToolOutputError(toolId, `the output file cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    switch (error.problem) {
      case "missing":
        return new ToolOutputError(
          toolId,
          "the binary exited 0 without writing its output file (argument 2); write the result there as JSON",
        );
      case "not-regular":
        return new ToolOutputError(
          toolId,
          `the output file is ${error.found}; the binary contract wants the JSON result ` +
            `written into a regular file at the path of argument 2 (links are not followed)`,
        );
      case "too-big":
        return new ToolOutputError(
          toolId,
          `the output file holds ${error.found}, more than outputFileLimitBytes ` +
            `(${limit}); return less, or raise it in new AgentTools({ outputFileLimitBytes })`,
        );
      case "deadline":
        return new ToolTimeoutError(toolId, this.options.callTimeoutMs);
    }
  }

  private requestTooLong(request: string, cause?: unknown): ToolInputError {
    return new ToolInputError(
      this.options.toolId,
      `the request is ${Buffer.byteLength(request)} bytes, more than one command-line argument may hold (128 KiB on Linux)`,
      cause,
    );
  }

  private cannotRun(error: unknown): never {
    const code = (error as NodeJS.ErrnoException).code;
    const hint =
      code === "EACCES"
        ? " (the file is not executable: chmod +x, and pack binaries with tar.gz)"
        : code === "ENOEXEC"
          ? " (not a program for this OS and architecture)"
          : "";
    throw new ToolEnvironmentError(this.options.toolId, `cannot run ${this.options.executable}: ${(error as Error).message}${hint}`, error);
  }

  /** An idle warm sandbox costs processes: stop it; the next call starts another. */
  private armIdleTimer(): void {
    clearTimeout(this.idleTimer);
    const idle = this.options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
    if (idle <= 0 || this.running > 0 || this.sandbox === undefined) return;
    this.idleTimer = setTimeout(() => {
      if (this.running > 0) return;
      this.sandbox?.retire();
      this.sandbox = undefined;
    }, idle);
    this.idleTimer.unref();
  }
}
