/**
 * The CPU architectures the system-call filter is built for, and the numbers of the calls it
 * refuses on each (docs/sandbox.md#system-call-filter). One table, so a new architecture is one
 * more column and a test compares every column with the kernel headers.
 */
export const SECCOMP_ARCHES = {
  x86_64: {
    /** `AUDIT_ARCH_X86_64`: what `seccomp_data.arch` holds for a 64-bit call. */
    auditArch: 0xc000003e,
    nodeArch: "x64",
    /**
     * x32 calls arrive with the x86_64 `arch` and this bit set in the number (`__X32_SYSCALL_BIT`):
     * a third table of numbers, refused as a foreign ABI.
     */
    foreignSyscallBit: 0x40000000,
  },
  aarch64: { auditArch: 0xc00000b7, nodeArch: "arm64", foreignSyscallBit: undefined },
} as const;

/**
 * Both are little-endian, so an argument's low 32-bit word is the first of its 8 bytes in
 * `seccomp_data` (seccomp-program.ts loads it from there).
 */
export type SeccompArch = keyof typeof SECCOMP_ARCHES;

interface Numbers {
  x86_64: number | undefined;
  aarch64: number | undefined;
}

/** `__NR_<name>` per architecture; undefined where the architecture has no such call. */
export const SYSCALL_NUMBERS = {
  // Other processes
  ptrace: { x86_64: 101, aarch64: 117 },
  process_vm_readv: { x86_64: 310, aarch64: 270 },
  process_vm_writev: { x86_64: 311, aarch64: 271 },
  process_madvise: { x86_64: 440, aarch64: 440 },
  pidfd_getfd: { x86_64: 438, aarch64: 438 },
  kcmp: { x86_64: 312, aarch64: 272 },
  // Mounts
  mount: { x86_64: 165, aarch64: 40 },
  umount2: { x86_64: 166, aarch64: 39 },
  pivot_root: { x86_64: 155, aarch64: 41 },
  open_tree: { x86_64: 428, aarch64: 428 },
  move_mount: { x86_64: 429, aarch64: 429 },
  fsopen: { x86_64: 430, aarch64: 430 },
  fsconfig: { x86_64: 431, aarch64: 431 },
  fsmount: { x86_64: 432, aarch64: 432 },
  fspick: { x86_64: 433, aarch64: 433 },
  mount_setattr: { x86_64: 442, aarch64: 442 },
  open_tree_attr: { x86_64: 467, aarch64: 467 },
  // Namespaces
  unshare: { x86_64: 272, aarch64: 97 },
  clone: { x86_64: 56, aarch64: 220 },
  clone3: { x86_64: 435, aarch64: 435 },
  setns: { x86_64: 308, aarch64: 268 },
  // Kernel interfaces
  keyctl: { x86_64: 250, aarch64: 219 },
  add_key: { x86_64: 248, aarch64: 217 },
  request_key: { x86_64: 249, aarch64: 218 },
  bpf: { x86_64: 321, aarch64: 280 },
  perf_event_open: { x86_64: 298, aarch64: 241 },
  userfaultfd: { x86_64: 323, aarch64: 282 },
  io_uring_setup: { x86_64: 425, aarch64: 425 },
  io_uring_enter: { x86_64: 426, aarch64: 426 },
  io_uring_register: { x86_64: 427, aarch64: 427 },
  // The machine
  kexec_load: { x86_64: 246, aarch64: 104 },
  kexec_file_load: { x86_64: 320, aarch64: 294 },
  init_module: { x86_64: 175, aarch64: 105 },
  finit_module: { x86_64: 313, aarch64: 273 },
  delete_module: { x86_64: 176, aarch64: 106 },
  iopl: { x86_64: 172, aarch64: undefined },
  ioperm: { x86_64: 173, aarch64: undefined },
  swapon: { x86_64: 167, aarch64: 224 },
  swapoff: { x86_64: 168, aarch64: 225 },
  reboot: { x86_64: 169, aarch64: 142 },
  acct: { x86_64: 163, aarch64: 89 },
  settimeofday: { x86_64: 164, aarch64: 170 },
  clock_settime: { x86_64: 227, aarch64: 112 },
  syslog: { x86_64: 103, aarch64: 116 },
  quotactl: { x86_64: 179, aarch64: 60 },
  quotactl_fd: { x86_64: 443, aarch64: 443 },
  lookup_dcookie: { x86_64: 212, aarch64: 18 },
  nfsservctl: { x86_64: 180, aarch64: 42 },
  uselib: { x86_64: 134, aarch64: undefined },
  // Terminals
  vhangup: { x86_64: 153, aarch64: 58 },
  // Files by handle
  name_to_handle_at: { x86_64: 303, aarch64: 264 },
  open_by_handle_at: { x86_64: 304, aarch64: 265 },
  // Calls refused for some arguments only
  socket: { x86_64: 41, aarch64: 198 },
  socketpair: { x86_64: 53, aarch64: 199 },
  ioctl: { x86_64: 16, aarch64: 29 },
  personality: { x86_64: 135, aarch64: 92 },
} as const satisfies Record<string, Numbers>;

export type SyscallName = keyof typeof SYSCALL_NUMBERS;
