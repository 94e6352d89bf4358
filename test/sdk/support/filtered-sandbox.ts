import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { dirname } from "node:path";
import { BubblewrapPlatform } from "../../../sdk/src/sandbox/bubblewrap-platform.js";
import { type SeccompOptions, seccompProgramFile } from "../../../sdk/src/sandbox/seccomp/index.js";

const NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"];

export interface FilteredSandbox {
  /** Folders to see read-only besides the system ones (this Node's folder is always added). */
  readOnly: string[];
  user?: "root" | "nobody";
  /**
   * The program's options (on fd 3, `bwrap --seccomp 3`), `none` for no filter, or `control`: no
   * filter, and every capability inside the sandbox's own user namespace (`--cap-add ALL`), so a
   * call reaches the kernel's own checks.
   */
  filter: SeccompOptions | "none" | "control";
}

/**
 * Runs argv in the project's sandbox, BubblewrapPlatform's own argv, with the system-call filter
 * as the launch wrapper will pass it: a file opened on a descriptor.
 */
export async function runFiltered(
  sandbox: FilteredSandbox,
  argv: string[],
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const command = new BubblewrapPlatform().wrap(
    {
      base: "system",
      readOnly: [...sandbox.readOnly, dirname(process.execPath)],
      writable: [],
      network: { kind: "none" },
      env: { PATH: "/usr/bin:/bin", HOME: "/tmp" },
      cwd: "/",
    },
    argv,
  );
  command.release();
  if (command.command !== "bwrap" || !command.args.join(" ").includes("--cap-drop ALL")) {
    throw new Error(`BubblewrapPlatform.wrap changed its launch (${command.command} ${command.args.join(" ")}): update runFiltered`);
  }
  const { filter } = sandbox;
  const args =
    filter === "control"
      ? command.args.map((arg, index) => (arg === "--cap-drop" && command.args[index + 1] === "ALL" ? "--cap-add" : arg))
      : filter === "none"
        ? command.args
        : ["--seccomp", "3", ...command.args];
  const launch = [...(sandbox.user === "nobody" ? NOBODY : []), "bwrap", ...args];
  // A fresh descriptor per run: bwrap reads the program to its end, moving a shared offset.
  const program = typeof filter === "string" ? "ignore" : openSync(seccompProgramFile(filter), "r");
  const child = spawn(launch[0]!, launch.slice(1), { env: command.env, stdio: ["ignore", "pipe", "pipe", program] });
  if (typeof program === "number") closeSync(program);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { stdout, stderr, code };
}
