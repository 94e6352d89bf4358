import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { ExitCleanup } from "../../sandbox/exit-cleanup.js";
import { processEnd, type ToolLauncher } from "../../sandbox/tool-launcher.js";
import type { SandboxedCommand } from "../../sandbox/sandbox-profile.js";
import { OutputTail } from "../output-tail.js";
import { killProcessGroup } from "../run-process.js";
import { ToolClosedError, ToolCrashedError, ToolEnvironmentError } from "../runtime-errors.js";
import { launcherKeepsEnvironment } from "./launcher-environment.js";
import { launcherArgv } from "./launcher-script.js";

/** How one call's process ended, as the launcher reports it (sandboxes report signal N as 128 + N). */
export interface CallEnd {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
}

export interface WarmSandboxSpec {
  toolId: string;
  launcher: ToolLauncher;
  executable: string;
  /** The tool folder: every call's working directory. */
  toolDir: string;
  /** The outbox folder, writable inside: each call's folder is made there by the agent. */
  outbox: string;
  /** Characters of the launcher's own stderr kept for crash reports. */
  outputLimit: number;
}

interface PendingCall {
  resolve(end: CallEnd): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
  /** The call's process group inside the sandbox, once the launcher reported it. */
  pgid?: number;
}

/** Protocol lines are a word, a call id and a number; anything longer is not the launcher's. */
const MAX_LINE = 128;
/** How long a dying launcher may take to flush stderr before its crash is reported. */
const EXIT_FLUSH_MS = 100;

/** Launchers are detached (own process group), so they are killed explicitly when the agent exits. */
const live = new ExitCleanup<WarmSandbox>((sandbox) => sandbox.kill());

/**
 * One binary tool's sandbox, kept between calls as a Python worker is (docs/sandbox.md#binary-tools):
 * a bash launcher inside it starts the tool once per call, each call its own process group, any
 * number at a time, and reports each one's end. A call past its timeout has its process group
 * killed at once, and the sandbox is retired: stopped as soon as its other calls are done, so
 * whatever the call started outside its group dies too; the next call starts a fresh one.
 */
export class WarmSandbox {
  private readonly child: ChildProcess;
  private readonly requests: Writable;
  private readonly replies: Readable;
  private readonly stderr: OutputTail;
  private readonly pending = new Map<string, PendingCall>();
  private partial = "";
  private exited = false;
  private killed = false;
  private retired = false;
  private closing = false;
  /** Settles once the launcher's process has gone. */
  readonly gone: Promise<void>;

  private constructor(
    private readonly spec: WarmSandboxSpec,
    launch: SandboxedCommand,
  ) {
    this.child = spawn(launch.command, launch.args, { stdio: ["pipe", "pipe", "pipe"], detached: true, env: launch.env });
    this.requests = this.child.stdin!;
    this.replies = this.child.stdout!;
    this.stderr = new OutputTail(spec.outputLimit);
    this.gone = new Promise((resolve) => {
      this.child.once("exit", () => {
        launch.release();
        resolve();
      });
      this.child.once("error", () => resolve());
    });
    this.requests.on("error", () => undefined); // EPIPE after a crash; the exit handler reports it
    this.replies.setEncoding("utf8").on("data", (text: string) => this.onReplies(text));
    this.child.stderr!.setEncoding("utf8").on("data", (text: string) => this.stderr.push(text));
    this.child.once("error", (error) => this.onSpawnError(error));
    this.child.once("exit", (code, signal) => this.onExit(code, signal));
    // An idle sandbox must not keep the agent's process alive; `run` refs the replies while calls run.
    this.child.unref();
    for (const stream of this.child.stdio) (stream as unknown as { unref?: () => void } | null)?.unref?.();
    live.add(this);
  }

  /**
   * Starts the tool's sandbox with its launcher, or returns undefined when the launcher could not
   * hand the tool its environment unchanged (see launcher-environment.ts): such a tool runs in a
   * sandbox per call.
   */
  static start(spec: WarmSandboxSpec): WarmSandbox | undefined {
    const launch = spec.launcher.launch(launcherArgv(spec.executable, spec.outbox), {
      cwd: spec.toolDir,
      env: {},
      writable: [spec.outbox],
    });
    if (!launcherKeepsEnvironment(launch.programEnv)) {
      launch.release();
      return undefined;
    }
    return new WarmSandbox(spec, launch);
  }

  /** Whether it takes new calls: running, not retired. */
  get accepting(): boolean {
    return !this.exited && !this.killed && !this.retired;
  }

  /** Runs the call whose folder is `<outbox>/<id>` (request written) and resolves with how it ended. */
  run(id: string, timeoutMs: number): Promise<CallEnd> {
    return new Promise((resolve, reject) => {
      if (!this.accepting) {
        reject(new ToolCrashedError(this.spec.toolId, this.child.exitCode, this.child.signalCode, this.stderr.text()));
        return;
      }
      const timer = timeoutMs > 0 ? setTimeout(() => this.timeOut(id), timeoutMs) : undefined;
      this.pending.set(id, { resolve, reject, timer });
      (this.replies as unknown as { ref(): void }).ref();
      this.requests.write(`run ${id}\n`);
    });
  }

  /** Takes no new calls and stops once the running ones are done. */
  retire(): void {
    this.retired = true;
    if (this.pending.size === 0) this.kill();
  }

  /** Stops it now; calls still running fail with ToolClosedError. */
  async close(): Promise<void> {
    this.closing = true;
    this.child.ref(); // the agent waits for the exit it is about to cause
    this.kill();
    await this.gone;
  }

  kill(): void {
    if (this.exited) return;
    this.killed = true;
    killProcessGroup(this.child.pid);
  }

  private timeOut(id: string): void {
    const pgid = this.pending.get(id)?.pgid;
    if (pgid !== undefined) this.requests.write(`kill ${pgid}\n`);
    this.settle(id, (call) => call.resolve({ exitCode: null, signal: null, timedOut: true }));
    this.retire();
  }

  private onReplies(text: string): void {
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      this.onLine(this.partial + text.slice(start, newline));
      this.partial = "";
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    this.partial += text.slice(start);
    // A tool can write into the launcher's pipe (through /proc); what is not a protocol line is dropped.
    if (this.partial.length > MAX_LINE) this.partial = "";
  }

  private onLine(line: string): void {
    const [verb, id, number] = line.split(" ");
    const value = Number(number);
    const call = id === undefined ? undefined : this.pending.get(id);
    if (call === undefined || !Number.isSafeInteger(value)) return;
    if (verb === "started") call.pgid = value;
    else if (verb === "done") this.settle(id!, (pending) => pending.resolve({ exitCode: value, signal: null, timedOut: false }));
  }

  private settle(id: string, action: (call: PendingCall) => void): void {
    const call = this.pending.get(id);
    if (call === undefined) return;
    this.pending.delete(id);
    clearTimeout(call.timer);
    if (this.pending.size === 0) {
      (this.replies as unknown as { unref(): void }).unref();
      if (this.retired) this.kill();
    }
    action(call);
  }

  private rejectAll(error: () => Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id, (call) => call.reject(error()));
  }

  private onSpawnError(error: Error): void {
    this.exited = true;
    live.delete(this);
    this.rejectAll(() => new ToolEnvironmentError(this.spec.toolId, `cannot start the tool's sandbox: ${error.message}`, error));
  }

  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exited = true;
    live.delete(this);
    if (this.pending.size === 0) return;
    const end = processEnd(this.spec.launcher, code, signal);
    const report = () =>
      this.rejectAll(() =>
        this.closing
          ? new ToolClosedError(this.spec.toolId)
          : new ToolCrashedError(this.spec.toolId, end.exitCode, end.signal, this.stderr.text()),
      );
    // Give the pipe a moment so the crash report carries the sandbox's last stderr lines.
    const timer = setTimeout(report, EXIT_FLUSH_MS);
    this.child.once("close", () => {
      clearTimeout(timer);
      report();
    });
  }
}
