import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { AgentToolsOptions } from "@agent-tools/sdk";

const SCRIPT = fileURLToPath(new URL("./tool-run-main.ts", import.meta.url));
const REPOSITORY = fileURLToPath(new URL("../../../", import.meta.url));
/** `nobody` on Debian and most distributions: no home, no groups, owns nothing. */
export const UNPRIVILEGED_UID = 65534;

export type ToolRunOutcome = { value: unknown; error?: undefined } | { value?: undefined; error: { code?: string; message: string } };

/**
 * Runs a local tool once through AgentTools in a process of `uid` (no supplementary groups), with
 * `env` as its whole environment: the same SDK code as an unprivileged agent runs it. Folders it
 * needs must be readable (and its cache writable) by that user.
 */
export async function runToolAsUser(
  uid: number,
  request: { options: AgentToolsOptions; path: string; toolId: string; input?: unknown },
  env: Record<string, string>,
): Promise<ToolRunOutcome> {
  const { stdout } = await promisify(execFile)(
    "setpriv",
    [`--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", "--", process.execPath, "--import", "tsx", SCRIPT, JSON.stringify(request)],
    { cwd: REPOSITORY, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return JSON.parse(stdout.trim().split("\n").pop()!) as ToolRunOutcome;
}
