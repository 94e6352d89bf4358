import { lstatSync } from "node:fs";

/**
 * Kernel interfaces under a sandbox's fresh `/proc` that change the whole machine, as data: each is
 * made read-only or hidden inside every sandbox, whoever the agent is (docs/sandbox.md#kernel-interfaces).
 * The sandboxed process is never host root (`sandbox-user.ts`), so file permissions already refuse
 * most of these; this list is the second wall, kept for the files whose checks are not plain
 * ownership (a sysctl's writability is decided by the caller's uid alone, not by capabilities).
 */
export interface KernelKnob {
  /** Absolute path inside the sandbox. Missing on this kernel: skipped. */
  path: string;
  /** `read-only`: visible, writes refused. `hidden`: replaced by an empty file or folder. */
  treatment: "read-only" | "hidden";
  reason: string;
}

export const KERNEL_KNOBS: readonly KernelKnob[] = [
  {
    path: "/proc/sys",
    treatment: "read-only",
    reason: "sysctls: kernel.core_pattern runs a program as host root on the next crash; the whole tree is global state",
  },
  { path: "/proc/sysrq-trigger", treatment: "read-only", reason: "a write reboots, crashes or syncs the machine" },
  { path: "/proc/irq", treatment: "read-only", reason: "interrupt affinity of the host's devices" },
  { path: "/proc/bus", treatment: "read-only", reason: "PCI and USB device configuration space" },
  { path: "/proc/fs", treatment: "read-only", reason: "filesystem driver settings (nfsd, xfs, ext4 tunables)" },
  { path: "/proc/kcore", treatment: "hidden", reason: "the host's physical memory as an ELF core" },
  { path: "/proc/keys", treatment: "hidden", reason: "key descriptions of every keyring the caller can view" },
  { path: "/proc/timer_list", treatment: "hidden", reason: "every pending timer with its process, a side channel" },
  { path: "/proc/sched_debug", treatment: "hidden", reason: "every task on the host with its scheduler state" },
  { path: "/proc/latency_stats", treatment: "hidden", reason: "kernel stack latency records of all processes" },
  { path: "/proc/acpi", treatment: "hidden", reason: "ACPI tables and methods of the host" },
  { path: "/proc/scsi", treatment: "hidden", reason: "`add-single-device` commands rescan the host's SCSI buses" },
];

/**
 * bubblewrap options applying the list after `--proc /proc`. The host's own `/proc` shows the same
 * entries, so it says which exist and whether each is a file or a folder (read once per process).
 */
export function kernelKnobArgs(): string[] {
  knobArgs ??= KERNEL_KNOBS.flatMap((knob) => {
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(knob.path);
    } catch {
      return [];
    }
    if (knob.treatment === "read-only") return ["--ro-bind", knob.path, knob.path];
    return info.isDirectory() ? ["--tmpfs", knob.path, "--remount-ro", knob.path] : ["--ro-bind", "/dev/null", knob.path];
  });
  return knobArgs;
}

let knobArgs: string[] | undefined;
