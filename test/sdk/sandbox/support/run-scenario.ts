import { spawn } from "node:child_process";
import { chown } from "node:fs/promises";
import { expect } from "vitest";
import { REPO_ROOT } from "../../mcp/support.js";

/**
 * Runs a scenario script (`node --import tsx <script> <folder> …args`) as `uid` (undefined: as this
 * process's own user), the folder owned by that user and, for another user, its only `HOME`; expects
 * exit 0 and returns what the script printed as JSON.
 */
export async function runScenarioAs<T>(uid: number | undefined, script: string, folder: string, args: string[] = []): Promise<T> {
  if (uid !== undefined) await chown(folder, uid, uid);
  const prefix = uid === undefined ? [] : ["/usr/bin/setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups"];
  const argv = [...prefix, process.execPath, "--import", "tsx", script, folder, ...args];
  const env = uid === undefined ? process.env : { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: folder };
  const child = spawn(argv[0]!, argv.slice(1), { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"], env });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout) as T;
}
