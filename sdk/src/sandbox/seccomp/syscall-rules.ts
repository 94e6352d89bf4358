import {
  AF,
  CLONE_NAMESPACE_FLAGS,
  type ErrnoName,
  NETLINK_ROUTE,
  ORDINARY_PERSONALITIES,
  SOCK_DGRAM,
  SOCK_TYPE_MASK,
  TIOCLINUX,
  TIOCSTI,
  UNSHARE_NAMESPACE_FLAGS,
} from "./kernel-constants.js";
import type { SyscallName } from "./syscall-numbers.js";

/**
 * One test of a call's argument (0 to 5), on its low 32-bit word: every argument a rule tests is
 * an `int` or `unsigned int` in the kernel (clone's flags: only the low word is read), so the high
 * word cannot change what the call does. `mask` is applied first.
 */
export type ArgumentTest =
  | { arg: number; mask?: number; oneOf: readonly number[] }
  | { arg: number; mask?: number; noneOf: readonly number[] }
  | { arg: number; anyBitOf: number };

/** The options that lift a rule (see `SeccompOptions`). */
export type RuleLift = "allowUnixSockets";

export const RULE_GROUPS = {
  sockets: "Sockets that reach past the sandbox's network namespace",
  processes: "Other processes' memory and descriptors",
  mounts: "The mount table",
  namespaces: "New namespaces",
  kernel: "Kernel interfaces that privilege escalations go through",
  machine: "The machine itself",
  terminals: "Terminals",
  handles: "Files by handle",
} as const;

export type RuleGroup = keyof typeof RULE_GROUPS;

/** A call the filter refuses (for the arguments in `when`, or always), and why. */
export interface SyscallRule {
  /** How docs and tests name the rule: the call, with its arguments when only some are refused. */
  name: string;
  syscall: SyscallName;
  /** Every test must pass for the rule to apply; none = every call. */
  when?: readonly ArgumentTest[];
  /** The call fails with this errno instead of running. */
  errno: ErrnoName;
  group: RuleGroup;
  reason: string;
  /** The option that leaves this rule out of the program. */
  liftedBy?: RuleLift;
}

type Entry = Omit<SyscallRule, "group" | "errno"> & { errno?: ErrnoName };

/** The group's entries, refused with EPERM unless an entry says otherwise. */
function group(name: RuleGroup, entries: Entry[]): SyscallRule[] {
  return entries.map((entry) => ({ errno: "EPERM", ...entry, group: name }));
}

/** Calls that take only the syscall's name: refused whatever the arguments. */
function always(syscall: SyscallName, reason: string): Entry {
  return { name: syscall, syscall, reason };
}

/**
 * The filter is a deny-list on top of the namespaces, the dropped capabilities and the read-only
 * filesystem (docs/sandbox.md#system-call-filter): every call not listed here is allowed. Rules
 * of one call are tried in order and the first that applies decides.
 */
export const SYSCALL_RULES: readonly SyscallRule[] = [
  ...group("sockets", [
    {
      name: "socket(AF_UNIX)",
      syscall: "socket",
      when: [{ arg: 0, oneOf: [AF.UNIX] }],
      reason:
        "connects to any socket file the sandbox can see, read-only mounts included " +
        "(a docker.sock is host root); a network grant needs it for the proxy's socket",
      liftedBy: "allowUnixSockets",
    },
    {
      name: "socketpair(AF_UNIX, SOCK_DGRAM)",
      syscall: "socketpair",
      when: [
        { arg: 0, oneOf: [AF.UNIX] },
        { arg: 1, mask: SOCK_TYPE_MASK, oneOf: [SOCK_DGRAM] },
      ],
      reason:
        "a datagram pair sends to any datagram socket file by address (sendto, connect), so it reaches " +
        "what socket(AF_UNIX) would; stream and seqpacket pairs reach only each other and stay allowed",
      liftedBy: "allowUnixSockets",
    },
    {
      name: "socket(AF_NETLINK, other than NETLINK_ROUTE)",
      syscall: "socket",
      when: [
        { arg: 0, oneOf: [AF.NETLINK] },
        { arg: 2, noneOf: [NETLINK_ROUTE] },
      ],
      errno: "EPROTONOSUPPORT",
      reason:
        "audit, uevent, generic, sock_diag, netfilter, xfrm and user-defined netlink reach kernel " +
        "subsystems (and, on the host's network, daemons) no tool needs; NETLINK_ROUTE stays for " +
        "getaddrinfo, getifaddrs and `ip`; EPROTONOSUPPORT is what a kernel without the protocol answers",
    },
    {
      name: "socket(families other than AF_INET, AF_INET6, AF_NETLINK, AF_UNIX)",
      syscall: "socket",
      when: [{ arg: 0, noneOf: [AF.INET, AF.INET6, AF.NETLINK, AF.UNIX] }],
      errno: "EAFNOSUPPORT",
      reason:
        "AF_VSOCK reaches the hypervisor past every network namespace; AF_PACKET and the " +
        "rare families (RDS, TIPC, CAN, Bluetooth, AF_ALG, ...) are where socket privilege " +
        "escalations live; EAFNOSUPPORT is what a kernel without the family answers",
    },
  ]),
  ...group("processes", [
    always(
      "ptrace",
      "reads and rewrites another process's memory and registers; only debuggers need it, and it is the first step of many escapes",
    ),
    always("process_vm_readv", "reads another process's memory directly, with ptrace's permission but no ptrace"),
    always("process_vm_writev", "writes another process's memory directly, with ptrace's permission but no ptrace"),
    always("process_madvise", "acts on another process's memory (reclaims, prefetches) with ptrace's permission"),
    always("pidfd_getfd", "copies a descriptor out of another process with ptrace's permission"),
    always(
      "kcmp",
      "compares the kernel objects of two processes: an address-order oracle against kernel ASLR, used only by checkpoint tools",
    ),
  ]),
  ...group("mounts", [
    always("mount", "mounts and remounts (a read-only bind made writable, a mask removed) once some namespace grants CAP_SYS_ADMIN"),
    always("umount2", "unmounts, uncovering what a mask or an empty tmpfs hides"),
    always("pivot_root", "replaces the root filesystem"),
    always("open_tree", "clones a mount tree into a detached mount, to attach elsewhere"),
    always("open_tree_attr", "open_tree that also changes the clone's attributes (read-only off)"),
    always("move_mount", "attaches or moves a mount"),
    always("fsopen", "the new mount API's first step: a filesystem context"),
    always("fsconfig", "configures a filesystem context (sources, options)"),
    always("fsmount", "turns a filesystem context into a mount"),
    always("fspick", "reopens a mounted filesystem's superblock to reconfigure it"),
    always("mount_setattr", "changes a mount's attributes: clears read-only, nosuid, noexec"),
  ]),
  ...group("namespaces", [
    {
      name: "unshare(namespace flags)",
      syscall: "unshare",
      when: [{ arg: 0, anyBitOf: UNSHARE_NAMESPACE_FLAGS }],
      reason:
        "a new user namespace gives every capability inside it, and with them kernel code (mounts, nf_tables, " +
        "...) that escalations go through; the other namespaces need one; unshare of files, fs or semaphores stays",
    },
    {
      name: "clone(namespace flags)",
      syscall: "clone",
      when: [{ arg: 0, anyBitOf: CLONE_NAMESPACE_FLAGS }],
      reason:
        "unshare's namespaces in a new process (flags are the first argument on " +
        "x86_64 and aarch64 alike); fork, threads and posix_spawn pass none and stay",
    },
    {
      ...always(
        "clone3",
        "its flags are in memory, where a filter cannot read them; ENOSYS makes the C library fall back to clone, whose flags it can",
      ),
      errno: "ENOSYS",
    },
    always("setns", "joins another namespace through a /proc or pidfd handle"),
  ]),
  ...group("kernel", [
    always(
      "keyctl",
      "reaches the session keyring the sandbox inherits from the agent " +
        "(Kerberos tickets, fscrypt keys), and a subsystem with many escalations",
    ),
    always("add_key", "adds keys to the keyrings keyctl reaches"),
    always("request_key", "asks the keyrings keyctl reaches for a key, possibly through an upcall to a host helper"),
    always("bpf", "loads programs into the kernel: the source of many escalations and speculative-execution gadgets"),
    always("perf_event_open", "kernel and hardware performance counters: side channels and a long list of escalations"),
    always("userfaultfd", "pauses the kernel mid-copy on a page fault, the standard way to win a kernel race"),
    always(
      "io_uring_setup",
      "io_uring runs operations (socket creation, opens) the filter never sees, and is the most exploited kernel interface of recent years",
    ),
    always("io_uring_enter", "submits io_uring operations (see io_uring_setup)"),
    always("io_uring_register", "registers files and buffers with an io_uring (see io_uring_setup)"),
    {
      name: "personality(other than the ordinary values)",
      syscall: "personality",
      when: [{ arg: 0, noneOf: ORDINARY_PERSONALITIES }],
      reason:
        "ADDR_NO_RANDOMIZE turns address randomisation off for the next program, READ_IMPLIES_EXEC makes " +
        "readable memory executable: exploit aids; PER_LINUX, PER_LINUX32, UNAME26 and the query stay",
    },
  ]),
  ...group("machine", [
    always("kexec_load", "boots another kernel"),
    always("kexec_file_load", "boots another kernel, from a file"),
    always("init_module", "loads kernel code"),
    always("finit_module", "loads kernel code, from a file"),
    always("delete_module", "unloads a kernel module"),
    always("iopl", "direct access to every hardware I/O port"),
    always("ioperm", "direct access to hardware I/O ports"),
    always("swapon", "adds a swap device"),
    always("swapoff", "removes a swap device"),
    always("reboot", "reboots or halts the machine (in a pid namespace: ends it)"),
    always("acct", "turns process accounting on or off, a file written for every process that ends"),
    always("settimeofday", "sets the machine's clock, which no namespace separates: TLS checks and logs of every process follow it"),
    always("clock_settime", "sets a machine clock (see settimeofday)"),
    always("syslog", "reads the kernel log, whose kernel addresses defeat KASLR"),
    always("quotactl", "changes disk quotas"),
    always("quotactl_fd", "changes disk quotas, by descriptor"),
    always("lookup_dcookie", "turns a kernel directory cookie into a path (profiling only; gone from new kernels)"),
    always("nfsservctl", "the removed NFS server interface, refused where a kernel still has it"),
    always("uselib", "loads an a.out library: obsolete, with a history of kernel bugs"),
  ]),
  ...group("terminals", [
    {
      name: "ioctl(TIOCSTI)",
      syscall: "ioctl",
      when: [{ arg: 1, oneOf: [TIOCSTI] }],
      reason:
        "pushes characters into a terminal's input, for the shell reading it to run once the tool exits; bwrap " +
        "--new-session already detaches the sandbox from the agent's terminal, the filter refuses it on any terminal",
    },
    {
      name: "ioctl(TIOCLINUX)",
      syscall: "ioctl",
      when: [{ arg: 1, oneOf: [TIOCLINUX] }],
      reason: "pastes a virtual console's selection into its input: TIOCSTI's injection on a Linux console",
    },
    always("vhangup", "hangs up the terminal, for every process using it"),
  ]),
  ...group("handles", [
    always("open_by_handle_at", "opens a file by its inode handle, from any mount of its filesystem: past the paths the sandbox hides"),
    {
      ...always(
        "name_to_handle_at",
        "makes the handles open_by_handle_at takes, nothing else; EOPNOTSUPP is what a " +
          "filesystem without handles answers, so callers (mount-point checks) fall back",
      ),
      errno: "EOPNOTSUPP",
    },
  ]),
];
