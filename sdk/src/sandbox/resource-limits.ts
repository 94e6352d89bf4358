/**
 * Kernel limits for a sandboxed tool and everything it starts. A tool that passes one fails with
 * an error naming the limit (`limits.memoryBytes`, ...), and the agent is unaffected. Per-process
 * limits are set with `prlimit`; totals with cgroups where the machine lets the SDK create them
 * (docs/sandbox.md#limits says which are enforced where).
 */
export interface ResourceLimits {
  /** CPU seconds per process (a worker's whole life): SIGXCPU past it. */
  cpuSeconds: number;
  /** Address space per process, bytes: allocations past it fail (Python raises MemoryError). */
  memoryBytes: number;
  /**
   * Memory of the whole sandbox, bytes: every process it starts and its private `/tmp` together
   * (a memory cgroup). Past it the kernel kills a process of the sandbox.
   */
  totalMemoryBytes: number;
  /** Processes and threads at once in the whole sandbox: `fork` fails past it, so a fork bomb stops there. */
  processes: number;
  /** Largest file the tool may write, bytes. */
  fileSizeBytes: number;
  openFiles: number;
  /** Size of the sandbox's private `/tmp`, bytes: writes past it fail with ENOSPC. */
  tmpBytes: number;
  /** Total size of the tool's state folder, bytes, checked before each call: a call past it is refused. */
  stateBytes: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_RESOURCE_LIMITS: Readonly<ResourceLimits> = Object.freeze({
  cpuSeconds: 3600,
  memoryBytes: 4096 * MiB,
  totalMemoryBytes: 4096 * MiB,
  processes: 128,
  fileSizeBytes: 1024 * MiB,
  openFiles: 1024,
  tmpBytes: 512 * MiB,
  stateBytes: 1024 * MiB,
});

/** Defaults with the caller's overrides; a non-positive or non-integer value is a mistake worth reporting. */
export function resolveResourceLimits(overrides: Partial<ResourceLimits> = {}): ResourceLimits {
  const limits = { ...DEFAULT_RESOURCE_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
    if (!Object.hasOwn(DEFAULT_RESOURCE_LIMITS, name)) {
      throw new RangeError(`sandboxLimits.${name} is not a limit; the limits are ${Object.keys(DEFAULT_RESOURCE_LIMITS).join(", ")}.`);
    }
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new RangeError(`sandboxLimits.${name} must be a positive integer, got ${String(value)}.`);
    }
  }
  return limits;
}

/**
 * `prlimit` options setting soft and hard limits alike, so the tool cannot raise them again. CPU
 * time is the exception: at its hard limit the kernel sends SIGKILL, which names no limit, so the
 * hard limit is one second past the soft one, where SIGXCPU (`limits.cpuSeconds`) arrives first.
 * `processesPerUser` is the process limit when the kernel counts it per sandbox, and otherwise
 * (a shared uid with a pids cgroup doing the counting) none at all.
 */
export function prlimitArgs(limits: ResourceLimits, processesPerUser: number | undefined): string[] {
  return [
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${limits.memoryBytes}`,
    ...(processesPerUser === undefined ? [] : [`--nproc=${processesPerUser}`]),
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
  ];
}
