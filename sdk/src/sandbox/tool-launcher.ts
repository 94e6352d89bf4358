import { constants } from "node:os";
import type { Denial, ToolFailure } from "./sandbox-denial.js";
import type { SandboxedCommand } from "./sandbox-profile.js";

export interface LaunchOptions {
  cwd: string;
  /** Variables the runtime itself needs (e.g. PYTHONIOENCODING); the launcher decides the rest. */
  env: Record<string, string>;
  /** Extra writable folders for this process (a binary tool's outbox, or one call's folder). */
  writable?: string[];
  /** Descriptors above 2 the process is handed (see `SandboxProfile.passFds`). */
  passFds?: readonly number[];
}

/**
 * How a runtime starts its tool's processes: inside the tool's sandbox or plainly. Runtimes never
 * spawn a tool directly, so the sandbox cannot be bypassed by a code path that forgot it.
 */
export interface ToolLauncher {
  readonly sandboxed: boolean;
  /** The tool's private writable folder, kept across calls (`$AGENT_TOOLS_STATE_DIR`). */
  readonly stateDir: string;
  launch(argv: string[], options: LaunchOptions): SandboxedCommand;
  /** Called before each call: throws `SandboxDeniedError` when the tool is over a limit checked between calls (`limits.stateBytes`). */
  admitCall(): Promise<void>;
  /** The capability a failure shows the tool lacked; undefined when the sandbox did not cause it. */
  explain(failure: ToolFailure): Denial | undefined;
}

/** The unsandboxed launcher: the agent's environment, everything visible (`sandbox: "off"`, or `auto` without a sandbox). */
export function directLauncher(stateDir: string): ToolLauncher {
  return {
    sandboxed: false,
    stateDir,
    launch: (argv, options) => {
      const env = { ...(process.env as Record<string, string>), ...options.env, AGENT_TOOLS_STATE_DIR: stateDir };
      return {
        command: argv[0]!,
        args: argv.slice(1),
        env,
        programEnv: env,
        release: () => undefined,
        outOfMemory: () => false,
      };
    },
    explain: () => undefined,
    admitCall: async () => undefined,
  };
}

/**
 * How a tool's process ended. A sandbox's outer process reports its child's death by signal N as
 * exit code 128 + N (as shells do), so for sandboxed tools that code is read back as the signal.
 */
export function processEnd(
  launcher: ToolLauncher,
  exitCode: number | null,
  signal: NodeJS.Signals | null,
): { exitCode: number | null; signal: NodeJS.Signals | null } {
  if (!launcher.sandboxed || signal !== null || exitCode === null || exitCode <= 128) return { exitCode, signal };
  const name = Object.entries(constants.signals).find(([, number]) => number === exitCode - 128)?.[0] as NodeJS.Signals | undefined;
  return name === undefined ? { exitCode, signal } : { exitCode: null, signal: name };
}
