/**
 * Kernel limits for a sandboxed tool and everything it starts. A tool that passes one fails with
 * an error naming the limit (`limits.memory`, ...), and the agent is unaffected.
 */
export interface ResourceLimits {
  /** CPU seconds per process (a worker's whole life): SIGXCPU past it. */
  cpuSeconds: number;
  /** Address space per process, bytes: allocations past it fail (Python raises MemoryError). */
  memoryBytes: number;
  /** Processes and threads at once: `fork` fails past it, so a fork bomb stops there. */
  processes: number;
  /** Largest file the tool may write, bytes. */
  fileSizeBytes: number;
  openFiles: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_RESOURCE_LIMITS: Readonly<ResourceLimits> = Object.freeze({
  cpuSeconds: 3600,
  memoryBytes: 4096 * MiB,
  processes: 128,
  fileSizeBytes: 1024 * MiB,
  openFiles: 1024,
});

/** Defaults with the caller's overrides; a non-positive or non-integer value is a mistake worth reporting. */
export function resolveResourceLimits(overrides: Partial<ResourceLimits> = {}): ResourceLimits {
  const limits = { ...DEFAULT_RESOURCE_LIMITS, ...overrides };
  for (const [name, value] of Object.entries(limits)) {
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
 */
export function prlimitArgs(limits: ResourceLimits): string[] {
  return [
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${limits.memoryBytes}`,
    `--nproc=${limits.processes}`,
    `--fsize=${limits.fileSizeBytes}`,
    `--nofile=${limits.openFiles}`,
  ];
}
