import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { ProcessCountGroup } from "./process-count-group.js";
import { prlimitArgs } from "./resource-limits.js";
import type { SandboxPlatform, SandboxSupport } from "./sandbox-platform.js";
import type { HiddenPath, SandboxedCommand, SandboxProfile } from "./sandbox-profile.js";

/** System folders of the `system` base; merged-/usr systems have the others as symlinks into /usr. */
const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/**
 * The `/etc` files programs need to run (dynamic loader, users and groups, time zone, TLS roots,
 * name service); never `/etc/shadow` or other secrets: this is an allowlist.
 */
const ETC_FILES = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/hosts",
  "/etc/host.conf",
  "/etc/gai.conf",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/crypto-policies",
  "/etc/alternatives",
  "/etc/os-release",
  "/etc/mime.types",
  "/etc/protocols",
  "/etc/services",
];
const PRLIMIT = "/usr/bin/prlimit";

/**
 * Linux: bubblewrap (`bwrap`). Every process gets its own user, pid, ipc, uts, cgroup and (unless
 * the host network is allowed) network namespace; `--die-with-parent` and the pid namespace end
 * the whole tree when the sandbox's main process or the agent goes away; all capabilities are
 * dropped; limits are set inside the user namespace by `prlimit`, where the kernel counts a
 * sandbox's processes on their own.
 */
export class BubblewrapPlatform implements SandboxPlatform {
  readonly name = "bubblewrap";

  constructor(private readonly bwrap = "bwrap") {}

  probe(): SandboxSupport {
    const version = spawnSync(this.bwrap, ["--version"], { encoding: "utf8", timeout: 5_000 });
    if (version.error !== undefined || version.status !== 0) {
      return {
        available: false,
        platform: this.name,
        reason: `bubblewrap (bwrap) is not installed (${version.error?.message ?? version.stderr.trim()})`,
        fix: "install it: `sudo apt-get install bubblewrap` (Debian, Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch)",
      };
    }
    if (!existsSync(PRLIMIT)) {
      return {
        available: false,
        platform: this.name,
        reason: `${PRLIMIT} is missing, so resource limits cannot be set`,
        fix: "install util-linux (`sudo apt-get install util-linux`)",
      };
    }
    const profile: SandboxProfile = {
      base: "system",
      readOnly: [],
      writable: [],
      network: { kind: "none" },
      env: { PATH: "/usr/bin:/bin" },
      cwd: "/",
      limits: { cpuSeconds: 5, memoryBytes: 256 * 1024 * 1024, processes: 16, fileSizeBytes: 1024, openFiles: 64 },
    };
    const command = this.wrap(profile, ["/bin/sh", "-c", "exit 0"]);
    const trial = spawnSync(command.command, command.args, { env: command.env, encoding: "utf8", timeout: 10_000 });
    command.release();
    if (trial.status === 0) {
      const notes =
        process.getuid?.() === 0 && ProcessCountGroup.create(1) === undefined
          ? ["running as root without a writable pids cgroup: the process limit is not enforced"]
          : [];
      return { available: true, platform: this.name, version: version.stdout.trim().replace(/^bubblewrap\s*/, ""), notes };
    }
    const stderr = (trial.stderr ?? "").trim() || trial.error?.message || `exit ${trial.status}`;
    const userns = /namespace|uid map|Permission denied|Operation not permitted/i.test(stderr);
    return {
      available: false,
      platform: this.name,
      reason: userns ? `bubblewrap cannot create user namespaces here (${stderr})` : `a trial sandbox failed (${stderr})`,
      fix: userns
        ? "allow unprivileged user namespaces for bwrap: on Ubuntu 24.04 add an AppArmor profile granting `userns` to /usr/bin/bwrap (see docs/sandbox.md), elsewhere check `sysctl user.max_user_namespaces` and container seccomp settings"
        : 'run the command above by hand to see what fails, or pass sandbox: "off" to run unsandboxed',
    };
  }

  wrap(profile: SandboxProfile, argv: string[]): SandboxedCommand {
    const args = ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
    if (profile.network.kind !== "host") args.push("--unshare-net");
    args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
    if (profile.base === "host") args.push("--ro-bind", "/", "/");
    else args.push(...systemMounts());
    args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
    const binds = [
      ...profile.readOnly.map((path) => ({ path, flag: "--ro-bind-try" })),
      ...profile.writable.map((path) => ({ path, flag: "--bind-try" })),
      ...(profile.network.kind === "proxy" ? [{ path: profile.network.proxySocket, flag: "--bind" }] : []),
    ];
    // Parents before children, so a writable folder inside a read-only one stays writable.
    binds.sort((a, b) => depth(a.path) - depth(b.path));
    for (const bind of binds) args.push(bind.flag, bind.path, bind.path);
    // Masks after every bind, so they lie on top of them (docs/sandbox.md#secrets-hidden).
    for (const mask of masks(profile.hidden ?? []))
      args.push(...(mask.directory ? ["--tmpfs", mask.path, "--remount-ro", mask.path] : ["--ro-bind", "/dev/null", mask.path]));
    if (profile.base === "system") args.push("--remount-ro", "/");
    args.push("--chdir", profile.cwd, "--");
    if (profile.limits !== undefined) args.push(PRLIMIT, ...prlimitArgs(profile.limits), "--");
    args.push(...argv);

    // Root's own processes escape RLIMIT_NPROC, so for root a pids cgroup bounds the count instead.
    const group = profile.limits !== undefined && process.getuid?.() === 0 ? ProcessCountGroup.create(profile.limits.processes) : undefined;
    if (group === undefined) return { command: this.bwrap, args, env: profile.env, release: () => undefined };
    return {
      command: "/bin/sh",
      args: ["-c", 'echo $$ > "$0" && exec "$@"', group.procsFile, this.bwrap, ...args],
      env: profile.env,
      release: () => group.remove(),
    };
  }
}

let systemMountArgs: string[] | undefined;

/** The `system` base's mounts: read once per process (the system folders do not move). */
function systemMounts(): string[] {
  systemMountArgs ??= readSystemMounts();
  return systemMountArgs;
}

function readSystemMounts(): string[] {
  const args: string[] = [];
  for (const path of [...SYSTEM_DIRS, ...ETC_FILES]) {
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(path);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) args.push("--symlink", readlinkSync(path), path);
    else args.push("--ro-bind", path, path);
  }
  return args;
}

/**
 * The real paths to mask, each once, parents first; none below a masked directory (its tmpfs
 * already hides them, and is read-only, so a mount point could not be made there).
 */
function masks(hidden: readonly HiddenPath[]): { path: string; directory: boolean }[] {
  const found = new Map<string, boolean>();
  for (const { path } of hidden) {
    try {
      const real = realpathSync(path);
      found.set(real, statSync(real).isDirectory());
    } catch {
      // Missing (or gone meanwhile): nothing there to read.
    }
  }
  const ordered = [...found].map(([path, directory]) => ({ path, directory })).sort((a, b) => depth(a.path) - depth(b.path));
  return ordered.filter(({ path }) => !ordered.some((other) => other.directory && path.startsWith(`${other.path}/`)));
}

function depth(path: string): number {
  return path.split("/").filter(Boolean).length;
}
