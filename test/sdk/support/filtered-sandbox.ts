import { spawn } from "node:child_process";
import { chmod, copyFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { BubblewrapPlatform } from "../../../sdk/src/sandbox/bubblewrap-platform.js";
import { type SeccompOptions, seccompProgramFile } from "../../../sdk/src/sandbox/seccomp/index.js";

const NOBODY_ID = 65534;
const NOBODY = ["/usr/bin/setpriv", `--reuid=${NOBODY_ID}`, `--regid=${NOBODY_ID}`, "--clear-groups", "--"];

export interface FilteredSandbox {
  /** Folders to see read-only besides the system ones (this Node's folder is always added). */
  readOnly: string[];
  /** Who starts the sandbox: this process's own user (default; root in CI) or nobody. */
  user?: "root" | "nobody";
  /**
   * The program's options, `none` for no filter, or `control`: no filter, and every capability
   * inside a user namespace of the sandbox's own (`--unshare-user --cap-add ALL`, never the host's
   * capabilities), so a call reaches the kernel's own checks.
   */
  filter: SeccompOptions | "none" | "control";
}

/**
 * Runs argv through `BubblewrapPlatform.wrap`'s own launch (the launch step, bubblewrap, and for a
 * root agent the idmap step and `setpriv`), with the system-call filter chosen by `filter`
 * instead of the one the platform picks.
 */
export async function runFiltered(
  sandbox: FilteredSandbox,
  argv: string[],
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const nobody = sandbox.user === "nobody";
  const platform = nobody
    ? new BubblewrapPlatform("bwrap", () => ({ uid: NOBODY_ID, gid: NOBODY_ID, switched: false }))
    : new BubblewrapPlatform();
  const command = platform.wrap(
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
  const args = [...command.args];
  const launch = args.indexOf("agent-tools-launch");
  if (launch === -1)
    throw new Error(`BubblewrapPlatform.wrap changed its launch (${command.command} ${args.join(" ")}): update runFiltered`);
  const { filter } = sandbox;
  // The launch step's arguments: keep, cgroups, args fd, seccomp file, seccomp fd, then what runs next.
  args[launch + 4] = typeof filter === "string" ? "" : nobody ? await readableCopy(seccompProgramFile(filter)) : seccompProgramFile(filter);
  let next = args.slice(launch + 6);
  if (typeof filter === "string") next = withoutOption(next, "--seccomp", 1);
  if (filter === "control") next = controlled(next);
  const spawned = [...(nobody ? NOBODY : []), command.command, ...args.slice(0, launch + 6), ...next];
  const child = spawn(spawned[0]!, spawned.slice(1), { env: command.env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { stdout, stderr, code };
}

/** A copy nobody can read: the program file lives in this (root) process's private folder. */
async function readableCopy(path: string): Promise<string> {
  const copy = join(tmpdir(), `filtered-sandbox-${process.pid}-${basename(path)}`);
  await copyFile(path, copy);
  await chmod(copy, 0o644);
  return copy;
}

/** `args` without the first `option` and the `values` after it. */
function withoutOption(args: string[], option: string, values: number): string[] {
  const index = args.indexOf(option);
  return index === -1 ? args : [...args.slice(0, index), ...args.slice(index + 1 + values)];
}

/**
 * The control's bubblewrap: every capability, but only in a user namespace of its own (a root
 * agent's launch otherwise keeps real capabilities for `setpriv`, which the control leaves out).
 */
function controlled(next: string[]): string[] {
  let args = next;
  const setpriv = args.findIndex((arg) => arg.endsWith("/setpriv"));
  if (setpriv !== -1) args = [...args.slice(0, setpriv), ...args.slice(args.indexOf("--", setpriv) + 1)];
  args = args.flatMap((arg, index) => (arg === "--cap-add" || args[index - 1] === "--cap-add" ? [] : [arg]));
  const drop = args.indexOf("--cap-drop");
  const userns = args.includes("--unshare-user") ? [] : ["--unshare-user"];
  return [...args.slice(0, drop), ...userns, "--cap-add", "ALL", ...args.slice(drop + 2)];
}
