import { readdirSync, readFileSync } from "node:fs";

/** Whether `pid` is alive, counting a zombie (dead, waiting for its parent or init to reap it) as gone. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/**
 * Live processes (zombies excluded) whose command line or environment contains `fragment`: how a
 * test finds a sandboxed tool's processes from outside, where their own pids mean nothing.
 */
export function processesMatching(fragment: string, where: "cmdline" | "environ"): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/${where}`, "latin1").includes(fragment) && isRunning(Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
