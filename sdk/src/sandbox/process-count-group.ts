import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExitCleanup } from "./exit-cleanup.js";

/**
 * A cgroup `pids` group capping how many processes a sandbox holds at once. Needed when the agent
 * runs as root: the kernel exempts root's own uid from RLIMIT_NPROC even inside a user namespace
 * (bubblewrap maps it to itself), so only a cgroup bounds a fork bomb there. Unprivileged agents
 * rely on RLIMIT_NPROC, which user namespaces count per sandbox.
 */
export class ProcessCountGroup {
  private constructor(readonly dir: string) {}

  /** The file a process writes its pid to in order to join. */
  get procsFile(): string {
    return join(this.dir, "cgroup.procs");
  }

  /** A new group allowing `max` processes, or undefined when no writable pids hierarchy exists. */
  static create(max: number): ProcessCountGroup | undefined {
    const parent = pidsParent();
    if (parent === undefined) return undefined;
    const dir = join(parent, `${process.pid}-${++created}`);
    try {
      mkdirSync(dir);
      writeFileSync(join(dir, "pids.max"), String(max));
    } catch {
      removeQuietly(dir);
      return undefined;
    }
    live.add(dir);
    return new ProcessCountGroup(dir);
  }

  /** Removes the group once its processes are gone (the kernel refuses while any remain, so it retries). */
  remove(): void {
    if (removeQuietly(this.dir)) {
      live.delete(this.dir);
      return;
    }
    let attempts = 0;
    const retry = setInterval(() => {
      if (removeQuietly(this.dir) || ++attempts >= 20) {
        clearInterval(retry);
        live.delete(this.dir);
      }
    }, 100);
    retry.unref();
  }
}

let created = 0;
let parentDir: string | null | undefined;
const live = new ExitCleanup<string>(removeQuietly);

const V1_ROOT = "/sys/fs/cgroup/pids";
const V2_ROOT = "/sys/fs/cgroup";

/** `<pids hierarchy>/agent-tools`, created once per process; null when cgroups cannot be written. */
function pidsParent(): string | undefined {
  if (parentDir === undefined) parentDir = findParent();
  return parentDir ?? undefined;
}

function findParent(): string | null {
  const v2 =
    existsSync(join(V2_ROOT, "cgroup.controllers")) &&
    readFileSync(join(V2_ROOT, "cgroup.controllers"), "utf8").split(/\s+/).includes("pids");
  const root = existsSync(join(V1_ROOT, "pids.max")) || existsSync(join(V1_ROOT, "cgroup.procs")) ? V1_ROOT : v2 ? V2_ROOT : undefined;
  if (root === undefined) return null;
  const dir = join(root, "agent-tools");
  try {
    mkdirSync(dir, { recursive: true });
    sweepAbandoned(dir);
    if (root === V2_ROOT) {
      writeFileSync(join(root, "cgroup.subtree_control"), "+pids");
      writeFileSync(join(dir, "cgroup.subtree_control"), "+pids");
    }
    return dir;
  } catch {
    return null;
  }
}

/** True once the folder is gone. */
function removeQuietly(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    // still busy (a process not reaped yet): the caller or the exit hook tries again
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** Groups left by agents that died without their exit hook (`<pid>-<n>` of a pid that is gone). */
function sweepAbandoned(dir: string): void {
  for (const name of readdirSync(dir)) {
    const owner = Number(name.split("-")[0]);
    if (Number.isInteger(owner) && owner !== process.pid && !existsSync(`/proc/${owner}`)) removeQuietly(join(dir, name));
  }
}
