import { spawn } from "node:child_process";
import { openSync, closeSync } from "node:fs";
import { mkdir, mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { glob } from "tinyglobby";
import { BoundedBytes } from "./bounded-bytes.js";
import type { BackgroundProcess, ExecOptions, ExecResult, FileStat, GlobOptions, WorkspaceBackend } from "./workspace-backend.js";

const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;

/** The host machine: real files, real processes (each in its own process group, so a timeout kills its children too). */
export class LocalWorkspaceBackend implements WorkspaceBackend {
  readonly cwd: string;

  constructor(options: { cwd?: string } = {}) {
    this.cwd = options.cwd ?? process.cwd();
  }

  exec(argv: string[], options: ExecOptions): Promise<ExecResult> {
    return runProcess(argv, options);
  }

  async startBackground(argv: string[], options: Pick<ExecOptions, "cwd" | "env">): Promise<BackgroundProcess> {
    const logPath = join(await mkdtemp(join(tmpdir(), "agent-tools-bash-")), "output.log");
    const log = openSync(logPath, "a");
    try {
      const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", log, log] });
      await new Promise<void>((resolve, reject) => {
        child.once("spawn", resolve);
        child.once("error", reject);
      });
      child.unref();
      return { pid: child.pid!, logPath };
    } finally {
      closeSync(log);
    }
  }

  readFile(path: string): Promise<Buffer> {
    return readFile(path);
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, data);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const info = await stat(path);
      return { size: info.size, mtimeMs: info.mtimeMs, isFile: info.isFile(), isDirectory: info.isDirectory() };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
      throw error;
    }
  }

  glob(pattern: string, options: GlobOptions): Promise<string[]> {
    return glob(pattern, {
      cwd: options.cwd,
      ignore: options.ignore,
      absolute: true,
      dot: true,
      onlyFiles: true,
      followSymbolicLinks: false,
      expandDirectories: false,
    });
  }

  grep(args: string[], options: ExecOptions): Promise<ExecResult> {
    return runProcess([rgPath, ...args], options);
  }
}

function runProcess(argv: string[], options: ExecOptions): Promise<ExecResult> {
  const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd: options.cwd, env: options.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const stdout = new BoundedBytes(limit);
    const stderr = new BoundedBytes(limit);
    let timedOut = false;
    let aborted = false;
    let settled = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // the group is already gone
      }
      // A descendant that left the group may still hold the pipes: stop waiting for them.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish(-1);
      }, 1000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      killGroup();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    const finish = (exitCode: number, spawnError?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({
        exitCode: timedOut || aborted ? -1 : exitCode,
        stdout: stdout.text(),
        stderr: spawnError ? `${spawnError.message}` : stderr.text(),
        timedOut,
        aborted,
      });
    };
    child.once("error", (error) => finish(127, error));
    child.once("close", (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}
