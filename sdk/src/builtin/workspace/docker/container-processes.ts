import { randomUUID } from "node:crypto";
import { WorkspaceError } from "../workspace-error.js";
import type { DockerEngine } from "./docker-engine.js";
import { ExecOutput } from "./exec-output.js";

export interface ContainerRunOptions {
  cwd?: string | undefined;
  /** Added to the container's environment. */
  env?: Record<string, string> | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  maxOutputBytes?: number | undefined;
}

export interface ContainerRun {
  /** -1 when the run timed out or was aborted. */
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * Each command a shell that writes its pid to a file in the workspace's private folder, runs it,
 * and prints its exit status as the last line of stderr. The engine's exec API has no kill, and an
 * exec's process leads its own process group (runc starts it with setsid), so a timeout kills that
 * group from a second exec, as the local backend kills its process group. The status line is read
 * because an engine may forget an exec as soon as it ends (Podman with `exit_command_delay = 0`),
 * so asking it afterwards is not reliable. (The workspace's own setup runs before the folder
 * exists: it then has no pid file, and cannot be killed early.)
 */
const RUN_WITH_PID_FILE =
  '{ echo $$ > "$0"; } 2>/dev/null; "$@"; status=$?; rm -f -- "$0"; printf "\\036agent-tools-exit:%d\\n" "$status" >&2; exit $status';
/** The status line, `\x1eagent-tools-exit:<status>\n`, at the very end of stderr. */
const EXIT_STATUS_LINE = /\x1eagent-tools-exit:(\d+)\n$/;
const KILL_FROM_PID_FILE =
  'pid=$(cat -- "$0" 2>/dev/null) || exit 0; kill -s KILL -- "-$pid" 2>/dev/null || kill -s KILL "$pid" 2>/dev/null; exit 0';
/** Background commands write their output to a log beside their pid file. */
const START_IN_BACKGROUND = 'echo $$ > "$0.pid"; exec "$@" > "$0" 2>&1';

/** After a kill, how long the output stream may stay open (a descendant that left the group holds it) before it is dropped. */
const KILL_GRACE_MS = 1000;
const KILL_ATTEMPTS = 20;
/** How long a background command may take to write its pid file: 10 s. */
const PID_FILE_ATTEMPTS = 100;
const POLL_MS = 100;
const UNLIMITED = Number.MAX_SAFE_INTEGER;
/** How Podman words an exec it no longer knows, in a 500 answer. */
const FORGOTTEN_EXEC = /no such exec session/;

interface ExecInspect {
  Running: boolean;
  ExitCode: number | null;
}

/** The processes of one workspace container, run through the engine's exec API as the container's user. */
export class ContainerProcesses {
  private backgroundRuns = 0;

  constructor(
    private readonly engine: DockerEngine,
    private readonly containerId: string,
    /** The workspace's folder inside the container for pid files, logs and staged writes. */
    private readonly privateDir: string,
  ) {}

  /** Runs argv (no shell of the caller's), collecting its output; a timeout or abort kills its process group. */
  async run(argv: readonly string[], options: ContainerRunOptions): Promise<ContainerRun> {
    const pidFile = `${this.privateDir}/exec-${randomUUID()}.pid`;
    const execId = await this.createExec(["sh", "-c", RUN_WITH_PID_FILE, pidFile, ...argv], options, true);
    const output = new ExecOutput(options.maxOutputBytes ?? UNLIMITED);
    const stream = await this.engine.stream("POST", `/exec/${execId}/start`, { json: { Detach: false, Tty: false } });
    let stopped: "timeout" | "abort" | undefined;
    const ended = new Promise<void>((resolve) => {
      stream.on("data", (chunk: Buffer) => output.push(chunk));
      stream.once("end", resolve);
      stream.once("close", resolve);
      stream.once("error", () => resolve());
    });
    const stop = (why: "timeout" | "abort") => {
      if (stopped) return;
      stopped = why;
      // A kill the engine refuses changes nothing here: the run is reported stopped and its stream
      // dropped either way, and whatever still runs ends with the container at close.
      void this.kill(execId, pidFile)
        .catch(() => undefined)
        .finally(() => setTimeout(() => stream.destroy(), KILL_GRACE_MS).unref());
    };
    const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
    const onAbort = () => stop("abort");
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      await ended;
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
    const reported = EXIT_STATUS_LINE.exec(output.stderrTail.toString("latin1"));
    // The status line is the run's, not the command's: it leaves stderr (unless the limit cut it off already).
    const statusLine = Buffer.from(reported?.[0] ?? "", "latin1");
    const kept = output.stderr;
    const stderr =
      statusLine.length > 0 && kept.subarray(-statusLine.length).equals(statusLine) ? kept.subarray(0, -statusLine.length) : kept;
    const exitCode = stopped ? -1 : reported !== null ? Number(reported[1]) : await this.exitCode(execId);
    return { exitCode, stdout: output.stdout, stderr, timedOut: stopped === "timeout", aborted: stopped === "abort" };
  }

  /** Starts argv detached, its output to a log in the private folder; returns its pid inside the container. */
  async start(argv: readonly string[], options: Pick<ContainerRunOptions, "cwd" | "env">): Promise<{ pid: number; logPath: string }> {
    const logPath = `${this.privateDir}/background-${++this.backgroundRuns}-${randomUUID().slice(0, 8)}.log`;
    const execId = await this.createExec(["sh", "-c", START_IN_BACKGROUND, logPath, ...argv], options, false);
    await this.engine.call("POST", `/exec/${execId}/start`, { json: { Detach: true, Tty: false } });
    for (let attempt = 0; attempt < PID_FILE_ATTEMPTS; attempt++) {
      const pid = await this.run(["cat", "--", `${logPath}.pid`], { timeoutMs: 10_000 });
      if (pid.exitCode === 0 && /^\d+\s*$/.test(pid.stdout.toString())) return { pid: Number(pid.stdout.toString()), logPath };
      await delay(POLL_MS);
    }
    throw new WorkspaceError(
      "WORKSPACE_OPERATION_FAILED",
      `The background command ${JSON.stringify(argv.join(" "))} did not start in container ${this.containerId.slice(0, 12)}: ` +
        `no pid file after ${(PID_FILE_ATTEMPTS * POLL_MS) / 1000} s. Its log, if any, is ${logPath}.`,
    );
  }

  private async createExec(argv: readonly string[], options: Pick<ContainerRunOptions, "cwd" | "env">, attach: boolean): Promise<string> {
    const created = await this.engine.json<{ Id: string }>("POST", `/containers/${this.containerId}/exec`, {
      json: {
        Cmd: argv,
        AttachStdout: attach,
        AttachStderr: attach,
        AttachStdin: false,
        Tty: false,
        ...(options.cwd === undefined ? {} : { WorkingDir: options.cwd }),
        ...(options.env === undefined ? {} : { Env: Object.entries(options.env).map(([name, value]) => `${name}=${value}`) }),
      },
    });
    return created.Id;
  }

  /** Kills the run's process group, again until the engine reports the exec ended (its pid file may not exist yet at the first try). */
  private async kill(execId: string, pidFile: string): Promise<void> {
    for (let attempt = 0; attempt < KILL_ATTEMPTS; attempt++) {
      const killer = await this.createExec(["sh", "-c", KILL_FROM_PID_FILE, pidFile], {}, true);
      await this.engine.call("POST", `/exec/${killer}/start`, { json: { Detach: false, Tty: false } });
      if (!((await this.inspect(execId))?.Running ?? false)) return;
      await delay(POLL_MS);
    }
  }

  /**
   * Without a status line (the run's shell itself was killed), the engine's record, when it still
   * has one; it may report an exec running for a moment after its output ended. -1 when unknown.
   */
  private async exitCode(execId: string): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      const state = await this.inspect(execId);
      if (state === undefined) return -1;
      if ((!state.Running && state.ExitCode !== null) || attempt >= KILL_ATTEMPTS) return state.ExitCode ?? -1;
      await delay(POLL_MS);
    }
  }

  /**
   * The engine's record of an exec; undefined once it forgot the exec (it ended). Docker answers
   * 404 then; Podman 4.3 answers 500 "no such exec session".
   */
  private async inspect(execId: string): Promise<ExecInspect | undefined> {
    const answer = await this.engine.call("GET", `/exec/${execId}/json`, {}, [200, 404, 500]);
    if (answer.status === 200) return JSON.parse(answer.body.toString("utf8")) as ExecInspect;
    if (answer.status === 404 || FORGOTTEN_EXEC.test(answer.body.toString("utf8"))) return undefined;
    throw this.engine.answerError("GET", `/exec/${execId}/json`, answer.status, answer.body);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
