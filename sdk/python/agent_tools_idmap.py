"""Maps root-owned folders to a root agent's sandbox user, then runs bubblewrap (docs/sandbox.md#a-root-agent).

Usage: python3 -I -S -B agent_tools_idmap.py UID GID [PATH ...] -- COMMAND [ARG ...]

Run by the SDK as root, before bubblewrap. In a mount namespace of its own (private, so nothing
reaches the host's), every PATH owned by uid 0 is replaced by an idmapped view of itself in which
uid/gid 0 appear as UID/GID: the sandbox's unprivileged user can then write there, and what it
writes is stored on disk as root's. bubblewrap, started next in this namespace, binds these views
into the sandbox. A PATH on a filesystem without idmapped mounts (or on a kernel older than 5.12)
stays as it is, with a warning on stderr: the sandbox user can read it as any other user would,
not write it. The sandbox itself never runs as uid 0.
"""

import ctypes
import os
import signal
import sys

# The generic syscall table numbers, the same on x86_64 and aarch64.
SYS_OPEN_TREE = 428
SYS_MOVE_MOUNT = 429
SYS_MOUNT_SETATTR = 442

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
AT_FDCWD = -100
AT_EMPTY_PATH = 0x1000
AT_RECURSIVE = 0x8000
OPEN_TREE_CLONE = 1
OPEN_TREE_CLOEXEC = os.O_CLOEXEC
MOVE_MOUNT_F_EMPTY_PATH = 0x4
MOUNT_ATTR_IDMAP = 0x00100000

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


class MountAttr(ctypes.Structure):
    _fields_ = [
        ("attr_set", ctypes.c_uint64),
        ("attr_clr", ctypes.c_uint64),
        ("propagation", ctypes.c_uint64),
        ("userns_fd", ctypes.c_uint64),
    ]


def fail(what):
    errno = ctypes.get_errno()
    raise OSError(errno, f"{what}: {os.strerror(errno)}")


def user_namespace(uid, gid):
    """A user namespace whose 0 is the host's UID/GID: the id mapping an idmapped mount borrows."""
    ready_r, ready_w = os.pipe()
    done_r, done_w = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(ready_r)
        os.close(done_w)
        os.write(ready_w, b"1" if libc.unshare(CLONE_NEWUSER) == 0 else b"0")
        os.read(done_r, 1)
        os._exit(0)
    os.close(ready_w)
    os.close(done_r)
    try:
        if os.read(ready_r, 1) != b"1":
            raise OSError("cannot create a user namespace for the id mapping")
        with open(f"/proc/{child}/uid_map", "w") as f:
            f.write(f"0 {uid} 1\n")
        with open(f"/proc/{child}/setgroups", "w") as f:
            f.write("deny")
        with open(f"/proc/{child}/gid_map", "w") as f:
            f.write(f"0 {gid} 1\n")
        return os.open(f"/proc/{child}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    finally:
        os.close(done_w)
        os.close(ready_r)
        os.waitpid(child, 0)


def idmap(path, userns):
    """Replaces the mount view at PATH by an idmapped clone of itself (with its submounts when they allow it)."""
    for flags in (AT_RECURSIVE, 0):
        tree = libc.syscall(SYS_OPEN_TREE, AT_FDCWD, path.encode(), OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | flags)
        if tree < 0:
            fail(f"open_tree {path}")
        try:
            attr = MountAttr(MOUNT_ATTR_IDMAP, 0, 0, userns)
            if libc.syscall(SYS_MOUNT_SETATTR, tree, b"", AT_EMPTY_PATH | flags, ctypes.byref(attr), ctypes.sizeof(attr)) != 0:
                if flags:
                    continue  # a submount's filesystem cannot be idmapped: map the top one alone
                fail(f"mount_setattr {path}")
            if libc.syscall(SYS_MOVE_MOUNT, tree, b"", AT_FDCWD, path.encode(), MOVE_MOUNT_F_EMPTY_PATH) != 0:
                fail(f"move_mount {path}")
            return
        finally:
            os.close(tree)


def main(argv):
    split = argv.index("--")
    uid, gid = int(argv[1]), int(argv[2])
    paths, command = argv[3:split], argv[split + 1 :]
    if libc.unshare(CLONE_NEWNS) != 0:
        fail("unshare(CLONE_NEWNS)")
    if libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        fail("making / private")
    # Ancestors first: a folder inside one already mapped is mapped with it.
    owned = [p for p in sorted(set(paths), key=lambda p: p.count("/")) if os.path.exists(p) and os.stat(p).st_uid == 0]
    if owned:
        userns = user_namespace(uid, gid)
        for path in owned:
            if os.stat(path).st_uid == uid:
                continue
            try:
                idmap(path, userns)
            except OSError as error:
                sys.stderr.write(f"agent-tools sandbox: {path} stays read-only to the sandbox user ({error})\n")
        os.close(userns)
    # Python ignores these two at start-up, and an ignored signal stays ignored across exec: give
    # the sandbox the dispositions every other program starts with (`yes | head` ends by SIGPIPE).
    for number in (signal.SIGPIPE, signal.SIGXFSZ):
        signal.signal(number, signal.SIG_DFL)
    os.execv(command[0], command)


if __name__ == "__main__":
    main(sys.argv)
