import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExitCleanup } from "./exit-cleanup.js";

/** What a cgroup bounds for one sandbox: everything it starts, together (docs/sandbox.md#limits). */
export interface CgroupLimits {
  processes: number;
  totalMemoryBytes: number;
}

/** What this machine lets the SDK bound with cgroups, decided once per process. */
export interface CgroupSupport {
  processes: boolean;
  memory: boolean;
  /** Why a total is not enforced, for the preflight's notes. */
  notes: string[];
}

/**
 * One sandbox's cgroups: a `pids` group capping the processes it holds at once and a `memory`
 * group capping the memory of all of them (a private `/tmp`'s pages included: tmpfs is charged to
 * the writer's group). The launch joins them before bubblewrap starts, so nothing the sandbox
 * starts is outside. cgroup v2 (one hierarchy) and v1 (one per controller) are both handled;
 * creating groups needs a writable hierarchy, which in practice means a root agent.
 */
export class SandboxCgroup {
  /** Read as the groups go, so a failure explained after its process exited still knows. */
  private killedForMemory = false;

  private constructor(private readonly dirs: readonly string[]) {}

  /** The files a process writes its pid to in order to join. */
  get procsFiles(): string[] {
    return this.dirs.map((dir) => join(dir, "cgroup.procs"));
  }

  /** New groups for the limits this machine can enforce; undefined when it can enforce none. */
  static create(limits: CgroupLimits): SandboxCgroup | undefined {
    const layout = hierarchies();
    const dirs: string[] = [];
    const name = `${process.pid}-${++created}`;
    const settings: [string | undefined, Record<string, string>][] =
      layout.kind === "v2"
        ? [[layout.root, { "pids.max": String(limits.processes), "memory.max": String(limits.totalMemoryBytes), "memory.swap.max": "0" }]]
        : [
            [layout.pids, { "pids.max": String(limits.processes) }],
            [
              layout.memory,
              { "memory.limit_in_bytes": String(limits.totalMemoryBytes), "memory.memsw.limit_in_bytes": String(limits.totalMemoryBytes) },
            ],
          ];
    for (const [parent, files] of settings) {
      if (parent === undefined) continue;
      const dir = join(parent, name);
      try {
        mkdirSync(dir);
        for (const [file, value] of Object.entries(files)) {
          // memsw and swap.max exist only where swap accounting is on; the other files must take the value.
          try {
            writeFileSync(join(dir, file), value);
          } catch (error) {
            if (!/memsw|swap/.test(file)) throw error;
          }
        }
      } catch {
        removeQuietly(dir);
        continue;
      }
      dirs.push(dir);
      live.add(dir);
    }
    return dirs.length === 0 ? undefined : new SandboxCgroup(dirs);
  }

  /** True when the kernel killed a process of this sandbox for passing the memory total. */
  outOfMemory(): boolean {
    if (this.killedForMemory) return true;
    for (const dir of this.dirs) {
      for (const file of ["memory.events", "memory.oom_control"]) {
        try {
          const count = /^oom_kill (\d+)$/m.exec(readFileSync(join(dir, file), "utf8"))?.[1];
          if (count !== undefined && Number(count) > 0) {
            this.killedForMemory = true;
            return true;
          }
        } catch {
          // not this hierarchy's file
        }
      }
    }
    return false;
  }

  /** Removes the groups once their processes are gone (the kernel refuses while any remain, so it retries). */
  remove(): void {
    this.outOfMemory();
    const pending = this.dirs.filter((dir) => {
      if (!removeQuietly(dir)) return true;
      live.delete(dir);
      return false;
    });
    if (pending.length === 0) return;
    let attempts = 0;
    const retry = setInterval(() => {
      for (const dir of pending) if (removeQuietly(dir)) live.delete(dir);
      if (pending.every((dir) => !existsSync(dir)) || ++attempts >= 20) {
        clearInterval(retry);
        for (const dir of pending) live.delete(dir);
      }
    }, 100);
    retry.unref();
  }
}

/** Which totals the groups above can enforce here. */
export function cgroupSupport(): CgroupSupport {
  const layout = hierarchies();
  const processes = layout.kind === "v2" ? layout.root !== undefined && layout.controllers.has("pids") : layout.pids !== undefined;
  const memory = layout.kind === "v2" ? layout.root !== undefined && layout.controllers.has("memory") : layout.memory !== undefined;
  const notes: string[] = [];
  if (!processes) notes.push("no writable pids cgroup: the process count is per process (RLIMIT_NPROC), not per sandbox");
  if (!memory) notes.push("no writable memory cgroup: memory is bounded per process (address space), not as a total per sandbox");
  return { processes, memory, notes };
}

let created = 0;
const live = new ExitCleanup<string>(removeQuietly);

const V2_ROOT = "/sys/fs/cgroup";
const V1_ROOTS = { pids: "/sys/fs/cgroup/pids", memory: "/sys/fs/cgroup/memory" } as const;

type Layout =
  | { kind: "v2"; root: string | undefined; controllers: Set<string> }
  | { kind: "v1"; pids: string | undefined; memory: string | undefined };

let layoutCache: Layout | undefined;

/** `<hierarchy>/agent-tools` for each usable controller, created once per process. */
function hierarchies(): Layout {
  layoutCache ??= findHierarchies();
  return layoutCache;
}

function findHierarchies(): Layout {
  const v1 = existsSync(join(V1_ROOTS.pids, "cgroup.procs")) || existsSync(join(V1_ROOTS.memory, "cgroup.procs"));
  if (!v1 && existsSync(join(V2_ROOT, "cgroup.controllers"))) {
    const available = new Set(readFileSync(join(V2_ROOT, "cgroup.controllers"), "utf8").split(/\s+/).filter(Boolean));
    const wanted = ["pids", "memory"].filter((controller) => available.has(controller));
    const root = parentGroup(V2_ROOT, (dir) => {
      const enable = wanted.map((controller) => `+${controller}`).join(" ");
      writeFileSync(join(V2_ROOT, "cgroup.subtree_control"), enable);
      writeFileSync(join(dir, "cgroup.subtree_control"), enable);
    });
    return { kind: "v2", root, controllers: new Set(wanted) };
  }
  return {
    kind: "v1",
    pids: existsSync(join(V1_ROOTS.pids, "cgroup.procs")) ? parentGroup(V1_ROOTS.pids) : undefined,
    memory: existsSync(join(V1_ROOTS.memory, "cgroup.procs")) ? parentGroup(V1_ROOTS.memory) : undefined,
  };
}

/** `<root>/agent-tools`, with groups left by dead agents swept; undefined when it cannot be written. */
function parentGroup(root: string, prepare?: (dir: string) => void): string | undefined {
  const dir = join(root, "agent-tools");
  try {
    mkdirSync(dir, { recursive: true });
    sweepAbandoned(dir);
    prepare?.(dir);
    return dir;
  } catch {
    return undefined;
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
