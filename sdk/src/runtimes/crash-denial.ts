import { SandboxDeniedError } from "../sandbox/sandbox-errors.js";
import type { ToolLauncher } from "../sandbox/tool-launcher.js";
import { ToolCrashedError } from "./runtime-errors.js";

/**
 * A tool process killed by a limit signal (SIGXCPU, SIGXFSZ) crashed because of the sandbox: the
 * error names the limit. Any other error is returned as it is.
 */
export function explainCrash(toolId: string, launcher: ToolLauncher | undefined, error: unknown): unknown {
  if (!(error instanceof ToolCrashedError) || launcher === undefined) return error;
  const denial = launcher.explain({ message: error.message, signal: error.signal, stderr: error.stderr });
  return denial === undefined ? error : new SandboxDeniedError(toolId, denial.capability, error.message, denial.fix, error);
}
