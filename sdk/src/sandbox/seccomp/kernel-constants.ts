// Kernel values the filter's rules test and return. They are the asm-generic values, which both
// x86_64 and aarch64 use (errno numbers, ioctl numbers and flags differ on mips, sparc, alpha,
// parisc and powerpc: a port to one of those moves the differing ones into syscall-numbers.ts).

/** The errors a refused call fails with (asm-generic/errno-base.h, asm-generic/errno.h). */
export const ERRNO = {
  EPERM: 1,
  ENOSYS: 38,
  EPROTONOSUPPORT: 93,
  EOPNOTSUPP: 95,
  EAFNOSUPPORT: 97,
} as const;

export type ErrnoName = keyof typeof ERRNO;

/** Socket families (linux/socket.h). */
export const AF = { UNIX: 1, INET: 2, INET6: 10, NETLINK: 16 } as const;

/** `protocol` of an AF_NETLINK socket (linux/netlink.h). */
export const NETLINK_ROUTE = 0;

/** `type & SOCK_TYPE_MASK` of a socket (the flags SOCK_NONBLOCK and SOCK_CLOEXEC sit above the mask). */
export const SOCK_TYPE_MASK = 0xf;
export const SOCK_DGRAM = 2;

/** Namespace flags of clone and unshare (linux/sched.h). */
export const CLONE_NEW = {
  NS: 0x00020000,
  CGROUP: 0x02000000,
  UTS: 0x04000000,
  IPC: 0x08000000,
  USER: 0x10000000,
  PID: 0x20000000,
  NET: 0x40000000,
  /** unshare only: in clone's flags these bits are the exit signal (CSIGNAL). */
  TIME: 0x00000080,
} as const;

/** Every namespace flag clone accepts (CLONE_NEWTIME is clone3 and unshare only). */
export const CLONE_NAMESPACE_FLAGS =
  CLONE_NEW.NS | CLONE_NEW.CGROUP | CLONE_NEW.UTS | CLONE_NEW.IPC | CLONE_NEW.USER | CLONE_NEW.PID | CLONE_NEW.NET;
/** Every namespace flag unshare accepts. */
export const UNSHARE_NAMESPACE_FLAGS = CLONE_NAMESPACE_FLAGS | CLONE_NEW.TIME;

/** Terminal ioctls (asm-generic/ioctls.h). */
export const TIOCSTI = 0x5412;
export const TIOCLINUX = 0x541c;

/**
 * The `personality` values programs use (linux/personality.h): PER_LINUX, PER_LINUX32 (`linux32`,
 * `setarch i686`), UNAME26 with either, and 0xffffffff, which only reads the current one.
 */
export const ORDINARY_PERSONALITIES = [0x0, 0x8, 0x20000, 0x20008, 0xffffffff] as const;
