import { readFileSync } from "node:fs";

/** Whether `pid` is alive, counting a zombie (dead, waiting for its parent or init to reap it) as gone. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
