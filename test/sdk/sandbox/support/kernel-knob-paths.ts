/** Kernel knobs the identity probe writes back with their own values (none may be writable in a sandbox). */
export const KNOBS = [
  "/proc/sys/kernel/core_pattern",
  "/proc/sys/kernel/modprobe",
  "/proc/sys/vm/overcommit_memory",
  "/proc/sys/fs/protected_symlinks",
  "/proc/sys/net/ipv4/ip_forward",
  "/proc/sys/kernel/hostname",
];
