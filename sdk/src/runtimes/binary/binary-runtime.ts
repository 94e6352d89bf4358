import { randomUUID } from "node:crypto";
import { constants as fsConstants, rmSync } from "node:fs";
import { access, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { toJsonPayload } from "../json-payload.js";
import { runProcess, type ProcessRun } from "../run-process.js";
import {
  ToolCrashedError,
  ToolEnvironmentError,
  ToolExecutionError,
  ToolInputError,
  ToolOutputError,
  ToolTimeoutError,
} from "../runtime-errors.js";
import { SandboxDeniedError } from "../../sandbox/sandbox-errors.js";
import { processEnd, type ToolLauncher } from "../../sandbox/tool-launcher.js";
import type { ToolOutputListener, ToolRuntime } from "../tool-runtime.js";
import { ExitCleanup } from "../../sandbox/exit-cleanup.js";

export interface BinaryToolOptions {
  toolId: string;
  executable: string;
  /** The tool folder (holding `code/`); the binary runs there. */
  toolDir: string;
  /** The full record with merged parameters, sent as `tool_data`. */
  record: unknown;
  callTimeoutMs: number;
  outputLimit: number;
  onOutput: ToolOutputListener | undefined;
  /** The tool's launcher (decided at the first call, then the same one: the caller memoises it). */
  launcher: () => Promise<ToolLauncher>;
}

/** The fixed answer: binaries have no management commands (docs/design/compatibility.md#binary-contract). */
export const BINARY_COMMAND_REPLY = Object.freeze({
  success: false,
  message: "management commands not available for binaries",
});

/** Output folders left by a process that never called `close()` are removed as it exits. */
const privateDirs = new ExitCleanup<string>((dir) => rmSync(dir, { recursive: true, force: true }));

/**
 * A binary tool under the binary contract (docs/design/compatibility.md#binary-contract): `code/<exe> '<request-json>' <output-file>`, where the
 * request is `{"tool_id", "tool_data", "mode": "input", "input"}` and the result is the JSON the
 * binary writes to the output file. Each call gets a fresh output file in a private folder.
 */
export class BinaryToolRuntime implements ToolRuntime {
  readonly kind = "binary";
  private outputDir: Promise<string> | undefined;

  constructor(private readonly options: BinaryToolOptions) {}

  async execute(input: unknown): Promise<unknown> {
    const { toolId } = this.options;
    const request = toJsonPayload(toolId, { tool_id: toolId, tool_data: this.options.record, mode: "input", input: input ?? {} });
    const outputFile = join(await this.privateDir(), `output-${randomUUID()}.json`);
    try {
      const launcher = await this.options.launcher();
      await launcher.admitCall();
      const raw = await this.run(launcher, request, outputFile);
      const run = { ...raw, ...processEnd(launcher, raw.exitCode, raw.signal) };
      if (run.timedOut) throw new ToolTimeoutError(toolId, this.options.callTimeoutMs);
      const denial = run.exitCode === 0 ? undefined : launcher.explain({ message: "", signal: run.signal, stderr: run.stderr });
      if (denial !== undefined) throw new SandboxDeniedError(toolId, denial.capability, run.stderr, denial.fix);
      if (run.signal !== null) throw new ToolCrashedError(toolId, null, run.signal, run.stderr);
      if (run.exitCode !== 0) {
        const stderr = run.stderr.trim();
        throw new ToolExecutionError(
          toolId,
          `the binary exited with code ${run.exitCode}${stderr ? `: ${stderr.slice(-2000)}` : " and wrote nothing to stderr"}`,
          {
            exitCode: run.exitCode ?? -1,
            stderr: run.stderr,
          },
        );
      }
      return await readResult(toolId, outputFile);
    } finally {
      await rm(outputFile, { force: true });
    }
  }

  async executeCommand(): Promise<unknown> {
    return { ...BINARY_COMMAND_REPLY };
  }

  async close(): Promise<void> {
    const dir = await this.outputDir;
    this.outputDir = undefined;
    if (dir === undefined) return;
    privateDirs.delete(dir);
    await rm(dir, { recursive: true, force: true });
  }

  private async run(launcher: ToolLauncher, request: string, outputFile: string): Promise<ProcessRun> {
    const { toolId, executable } = this.options;
    const launch = launcher.launch([executable, request, outputFile], {
      cwd: this.options.toolDir,
      env: {},
      writable: [dirname(outputFile)],
    });
    try {
      // A sandbox starts its own launcher first, so an unexecutable tool would only show as its exit code.
      if (launcher.sandboxed) await access(executable, fsConstants.X_OK);
      return await runProcess(launch.command, launch.args, {
        env: launch.env,
        cwd: this.options.toolDir,
        timeoutMs: this.options.callTimeoutMs,
        outputLimit: this.options.outputLimit,
        onOutput: (stream, text) => this.options.onOutput?.(toolId, stream, text),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "E2BIG") {
        throw new ToolInputError(
          toolId,
          `the request is ${Buffer.byteLength(request)} bytes, more than one command-line argument may hold (128 KiB on Linux)`,
          error,
        );
      }
      const hint =
        code === "EACCES"
          ? " (the file is not executable: chmod +x, and pack binaries with tar.gz)"
          : code === "ENOEXEC"
            ? " (not a program for this OS and architecture)"
            : "";
      throw new ToolEnvironmentError(toolId, `cannot run ${executable}: ${(error as Error).message}${hint}`, error);
    } finally {
      launch.release();
    }
  }

  private privateDir(): Promise<string> {
    this.outputDir ??= mkdtemp(join(tmpdir(), "agent-tools-binary-")).then((dir) => {
      privateDirs.add(dir);
      return dir;
    });
    return this.outputDir;
  }
}

async function readResult(toolId: string, outputFile: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(outputFile, "utf8");
  } catch (error) {
    throw new ToolOutputError(toolId, "the binary exited 0 without writing its output file (argument 2); write the result there as JSON", {
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolOutputError(toolId, `the output file is not valid JSON (${(error as Error).message}): ${text.slice(0, 200)}`, {
      cause: error,
    });
  }
}
