import { existsSync } from "node:fs";
import { join } from "node:path";
import type { HarnessPass } from "./harness-protocol.js";
import type { SnapshotRoot } from "./tree-snapshot.js";

/**
 * The outer wall around the whole harness process, so that a command that escaped the project's
 * sandbox still could not change the machine. Two layers:
 *
 * - **Identity.** The harness never holds the machine's root. Started by root, it first becomes a
 *   host uid no account uses (`HOST_UID_BASE` + its uid inside), then bubblewrap maps that uid to
 *   0 (the root pass, with all capabilities inside its own user namespace) or 65534 (the
 *   unprivileged pass). Kernel settings under `/proc/sys` that are not per-namespace check the
 *   machine's root, so they stay read-only even to a command that escaped both sandboxes, and so
 *   do root's files (`/etc/shadow`). Started by another user, that user is the host identity.
 * - **Mounts.** The machine read-only; fresh `/tmp` and `/var/tmp` (writable, watched by the
 *   snapshots, so an escaped write lands where the harness sees it); `/run` and `/tmp` empty, so
 *   no socket of the machine's daemons is there to connect to; the real homes hidden, with
 *   the toolchains the corpus runs bound back read-only; the throwaway folder the only place of
 *   the machine that can change. The network is a namespace of its own holding `lo` only.
 *
 * The outer `/proc` is mounted by an unprivileged bubblewrap, which leaves `/proc/sys` uncovered:
 * the kernel lets the project's sandbox mount its own `/proc` inside only when a fully visible one
 * exists (a covered or read-only `/proc` makes every nested bubblewrap fail).
 */
export const HOST_UID_BASE = 2_000_000_000;

const INNER_UID: Record<HarnessPass, number> = { root: 0, unprivileged: 65534 };

/** Hidden behind an empty tmpfs, and why. */
const HIDDEN: readonly { path: string; why: string }[] = [
  { path: "/tmp", why: "the harness's own /tmp; the project's sandbox gets another private one" },
  { path: "/var/tmp", why: "other users' files out of view; the throwaway folder is bound back inside it" },
  { path: "/root", why: "root's real home and its credentials out of view" },
  { path: "/home", why: "the real users' homes out of view (a non-root user's own secrets included)" },
  // connect() works on a socket file in a read-only mount: the machine's daemons (dbus, a docker or
  // podman socket, a database) must not be there to reach. Abstract sockets are per network namespace.
  { path: "/run", why: "the machine's unix sockets out of reach (/var/run is a link to it)" },
];

/**
 * Bound back read-only under a hidden folder: programs the corpus runs (no credentials in them).
 * Root's home is 0700, out of the harness identity's reach, so for a root start a first,
 * privileged bubblewrap binds each one into the throwaway folder's `toolchains/` (a mount
 * namespace of its own: the machine's mounts do not change), and the wall binds it back in place.
 */
const TOOLCHAINS: readonly string[] = ["/root/.pyenv", "/root/.rustup", "/root/.cargo/bin"];

/** The harness's folders inside the throwaway one (not part of any world's snapshot). */
export const HARNESS_FOLDERS = ["worlds", "run", "lib", "toolchains"] as const;

/** The agent's environment inside (the harness adds the credential variables and HOME). */
function agentEnvironment(throwaway: string): Record<string, string> {
  return {
    PATH: "/root/.pyenv/shims:/root/.cargo/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    HOME: `${throwaway}/home`,
    LANG: "C.UTF-8",
    TERM: "dumb",
    PYENV_ROOT: "/root/.pyenv",
    RUSTUP_HOME: "/root/.rustup",
    CARGO_HOME: "/root/.cargo",
    // tsx would otherwise keep a compile cache in the outer /tmp, which the snapshots watch.
    TSX_DISABLE_CACHE: "1",
  };
}

export interface OuterWall {
  command: string;
  args: string[];
  /** Who the harness is on the machine: the throwaway folder must belong to this uid. */
  hostUid: number;
  /** Folders of the throwaway one the caller creates first (bubblewrap would make them root's, 0700). */
  mountPoints: string[];
  /** The places outside the throwaway folder that the wall leaves writable. */
  outsideRoots: SnapshotRoot[];
}

/** The command that starts `argv` (the harness) inside the wall, in `directory`, for one pass. */
export function outerWall(pass: HarnessPass, throwaway: string, directory: string, argv: readonly string[]): OuterWall {
  const inner = INNER_UID[pass];
  const machineRoot = process.getuid?.() === 0;
  const hostUid = machineRoot ? HOST_UID_BASE + inner : (process.getuid?.() ?? inner);
  const toolchains = machineRoot
    ? TOOLCHAINS.filter((path) => existsSync(path)).map((path, index) => ({ path, staged: join(throwaway, "toolchains", String(index)) }))
    : [];

  const wall = ["bwrap", "--unshare-user", "--uid", String(inner), "--gid", String(inner)];
  if (pass === "root") wall.push("--cap-add", "ALL");
  wall.push("--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent");
  wall.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const { path } of HIDDEN) wall.push("--tmpfs", path);
  // A checkout under a hidden folder (a CI clone in /tmp) is bound back read-only, and left out of
  // that folder's snapshots: the harness runs from it.
  const checkoutHidden = HIDDEN.some(({ path }) => isWithin(directory, path));
  if (checkoutHidden) wall.push("--ro-bind", directory, directory);
  for (const { path, staged } of toolchains) wall.push("--ro-bind", staged, path);
  wall.push("--bind", throwaway, throwaway, "--chdir", directory, "--clearenv");
  for (const [name, value] of Object.entries(agentEnvironment(throwaway))) wall.push("--setenv", name, value);
  wall.push("--", ...argv);

  const staging = [
    "bwrap",
    "--ro-bind",
    "/",
    "/",
    "--dev-bind",
    "/dev",
    "/dev",
    "--bind",
    "/proc",
    "/proc",
    "--bind",
    throwaway,
    throwaway,
  ];
  for (const { path, staged } of toolchains) staging.push("--ro-bind", path, staged);
  staging.push("--die-with-parent", "--", "setpriv", `--reuid=${hostUid}`, `--regid=${hostUid}`, "--clear-groups");
  const [command, ...args] = machineRoot ? [...staging, ...wall] : wall;
  return {
    command: command!,
    args,
    hostUid,
    mountPoints: toolchains.map(({ staged }) => staged),
    outsideRoots: [
      { path: "/tmp" },
      { path: "/var/tmp", exclude: [throwaway] },
      { path: "/root", exclude: [...TOOLCHAINS] },
      { path: "/home" },
      { path: "/run" },
      { path: "/dev/shm" },
    ].map((root) => (isWithin(directory, root.path) ? { ...root, exclude: [...(root.exclude ?? []), directory] } : root)),
  };
}

/** `path` is `folder` or inside it. */
function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}
