import { spawnSync } from "node:child_process";
import { accessSync, constants as fsConstants, existsSync, lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { kernelKnobArgs } from "./kernel-knobs.js";
import { prlimitArgs, type ResourceLimits } from "./resource-limits.js";
import { cgroupSupport, SandboxCgroup } from "./sandbox-cgroup.js";
import { launchCommand, LAUNCH_SHELL } from "./sandbox-launch.js";
import type { SandboxPlatform, SandboxSupport } from "./sandbox-platform.js";
import type { HiddenPath, SandboxedCommand, SandboxProfile } from "./sandbox-profile.js";
import { sandboxAccountFiles, sandboxUser, type SandboxUser } from "./sandbox-user.js";
import { SeccompFilterError } from "./seccomp/seccomp-filter-error.js";
import { seccompProgramFile } from "./seccomp/seccomp-program-file.js";

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
const SETPRIV = "/usr/bin/setpriv";
const BASE64 = "/usr/bin/base64";
/**
 * What bubblewrap's last step keeps for `setpriv`, which drops them, and every other capability,
 * before the program starts: the uid switch, and passing through the working directory, which
 * bubblewrap enters as root (on an idmapped folder, root is nobody in particular).
 */
const SWITCH_CAPABILITIES = ["CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP", "CAP_DAC_OVERRIDE"];
/** Maps root-owned folders to a root agent's sandbox user (docs/sandbox.md#a-root-agent). */
const IDMAP_SCRIPT = fileURLToPath(new URL("../../python/agent_tools_idmap.py", import.meta.url));

/**
 * Linux: bubblewrap (`bwrap`). Every process gets its own pid, ipc, uts, cgroup and (unless the
 * host network is allowed) network namespace; `--die-with-parent` and the pid namespace end the
 * whole tree when the sandbox's main process or the agent goes away; it holds no capability and
 * no descriptor of the agent's; per-process limits are set inside by `prlimit`, totals by cgroups.
 *
 * Who it runs as (`sandbox-user.ts`): an ordinary agent's sandbox is its own uid in a user
 * namespace that cannot make further ones (`--disable-userns`). A root agent's sandbox is never
 * uid 0: bubblewrap sets up the mounts as root, then `setpriv` becomes an unprivileged uid that
 * owns nothing, with every capability dropped, before the sandboxed program starts; the folders it
 * may write are idmapped to that uid first (`agent_tools_idmap.py`).
 */
export class BubblewrapPlatform implements SandboxPlatform {
  readonly name = "bubblewrap";
  private executable: string | undefined;
  private helperPython: string | null | undefined;
  /** `--disable-userns` came with bubblewrap 0.8; older ones leave new user namespaces to the seccomp filter. */
  private disablesUserNamespaces = true;

  /**
   * @param bwrap bubblewrap's name or path.
   * @param user who sandboxed processes run as; default the agent's own identity rules
   *   (`sandboxUser()`). Tests pass an ordinary user's identity to build the launch that user gets.
   */
  constructor(
    private readonly bwrap = "bwrap",
    private readonly user: () => SandboxUser = sandboxUser,
  ) {}

  probe(): SandboxSupport {
    const version = spawnSync(this.bwrap, ["--version"], { encoding: "utf8", timeout: 5_000 });
    if (version.error !== undefined || version.status !== 0) {
      return {
        available: false,
        platform: this.name,
        reason: `bubblewrap (bwrap) is not installed (${version.error?.message ?? version.stderr.trim()})`,
        fix:
          "install it: `sudo apt-get install bubblewrap` (Debian, Ubuntu), `sudo " +
          "dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch)",
      };
    }
    const release = /(\d+)\.(\d+)/.exec(version.stdout)?.slice(1).map(Number) ?? [0, 0];
    this.disablesUserNamespaces = release[0]! > 0 || release[1]! >= 8;
    const user = this.user();
    const missing = [PRLIMIT, LAUNCH_SHELL, BASE64, ...(user.switched ? [SETPRIV] : [])].find((path) => !existsSync(path));
    if (missing !== undefined) {
      return {
        available: false,
        platform: this.name,
        reason: `${missing} is missing, so a sandbox cannot be started safely`,
        fix:
          `install ${missing === LAUNCH_SHELL ? "bash" : missing === BASE64 ? "coreutils" : "util-linux"} (\`sudo ` +
          `apt-get install ${missing === LAUNCH_SHELL ? "bash" : missing === BASE64 ? "coreutils" : "util-linux"}\`)`,
      };
    }
    const profile: SandboxProfile = {
      base: "system",
      readOnly: [],
      writable: [],
      network: { kind: "none" },
      env: { PATH: "/usr/bin:/bin" },
      cwd: "/",
      limits: {
        cpuSeconds: 5,
        memoryBytes: 256 * 1024 * 1024,
        totalMemoryBytes: 256 * 1024 * 1024,
        processes: 16,
        fileSizeBytes: 1024,
        openFiles: 64,
        tmpBytes: 1024 * 1024,
        stateBytes: 1024 * 1024,
      },
    };
    let command: SandboxedCommand;
    try {
      command = this.wrap(profile, ["/bin/sh", "-c", "exit 0"]);
    } catch (error) {
      if (!(error instanceof SeccompFilterError)) throw error;
      return { available: false, platform: this.name, reason: error.reason, fix: error.fix };
    }
    const trial = spawnSync(command.command, command.args, { env: command.env, encoding: "utf8", timeout: 10_000 });
    command.release();
    if (trial.status === 0) {
      const notes = [...cgroupSupport().notes];
      if (!this.disablesUserNamespaces)
        notes.push("bubblewrap is older than 0.8: new user namespaces are refused by the seccomp filter alone");
      if (user.switched && this.python() === undefined) {
        notes.push(
          `running as root without python3: folders owned by root stay read-only ` +
            `to the sandbox user (uid ${user.uid}); install python3 to map them`,
        );
      }
      return { available: true, platform: this.name, version: version.stdout.trim().replace(/^bubblewrap\s*/, ""), notes };
    }
    const stderr = (trial.stderr ?? "").trim() || trial.error?.message || `exit ${trial.status}`;
    const userns = /namespace|uid map|Permission denied|Operation not permitted/i.test(stderr);
    return {
      available: false,
      platform: this.name,
      reason: userns ? `bubblewrap cannot create user namespaces here (${stderr})` : `a trial sandbox failed (${stderr})`,
      fix: userns
        ? "allow unprivileged user namespaces for bwrap: on Ubuntu 24.04 add an AppArmor profile granting `userns` to " +
          "/usr/bin/bwrap (see docs/sandbox.md), elsewhere check `sysctl user.max_user_namespaces` and container seccomp settings"
        : 'run the command above by hand to see what fails, or pass sandbox: "off" to run unsandboxed',
    };
  }

  wrap(profile: SandboxProfile, argv: string[]): SandboxedCommand {
    const user = this.user();
    // A network grant's bridge reaches the proxy through a unix socket; nothing else may make one.
    const seccompFile = seccompProgramFile({ allowUnixSockets: profile.network.kind === "proxy" });
    const args = user.switched ? [] : ["--unshare-user", ...(this.disablesUserNamespaces ? ["--disable-userns"] : [])];
    args.push("--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try");
    if (profile.network.kind !== "host") args.push("--unshare-net");
    args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
    if (user.switched) for (const capability of SWITCH_CAPABILITIES) args.push("--cap-add", capability);
    if (profile.base === "host") args.push("--ro-bind", "/", "/");
    // The folder holding the /etc allowlist is bubblewrap's own, private to its creator unless opened up.
    else args.push(...(user.switched ? ["--perms", "0755", "--dir", "/etc"] : []), ...systemMounts());
    if (user.switched) {
      const accounts = sandboxAccountFiles(user);
      args.push("--ro-bind", accounts.passwd, "/etc/passwd", "--ro-bind", accounts.group, "/etc/group");
    }
    args.push("--dev", "/dev", "--proc", "/proc", ...kernelKnobArgs());
    // Private, size-capped, writable by whoever the sandbox runs as (POSIX semaphores and shared memory live in /dev/shm).
    for (const tmp of ["/tmp", "/dev/shm"]) {
      args.push("--perms", "1777", ...(profile.limits === undefined ? [] : ["--size", String(profile.limits.tmpBytes)]), "--tmpfs", tmp);
    }
    const binds = [
      ...profile.readOnly.map((path) => ({ path, flag: "--ro-bind-try" })),
      ...profile.writable.map((path) => ({ path, flag: "--bind-try" })),
      ...masks(profile.hidden ?? []).map(({ path, directory }) => ({ path, flag: directory ? "mask-directory" : "mask-file" })),
      ...(profile.network.kind === "proxy" ? [{ path: profile.network.proxySocket, flag: "--bind" }] : []),
    ];
    // Parents before children (a stable sort: a mask after a bind of the same path), so a writable
    // folder inside a read-only one stays writable and a masked one stays hidden
    // (docs/sandbox.md#secrets-hidden).
    binds.sort((a, b) => depth(a.path) - depth(b.path));
    // The folders bubblewrap creates to hold a bind are private to their creator: a switched user
    // must pass through them, so each is opened up right before its bind (after any tmpfs above it).
    for (const bind of binds) {
      if (user.switched) for (const folder of createdParents(profile, bind.path)) args.push("--perms", "0755", "--dir", folder);
      if (bind.flag === "mask-directory") args.push("--tmpfs", bind.path);
      else if (bind.flag === "mask-file") args.push("--ro-bind", "/dev/null", bind.path);
      else args.push(bind.flag, bind.path, bind.path);
    }
    // Read-only last, once whatever a profile binds inside a masked folder (a tool's own proxy socket) is there.
    for (const bind of binds) if (bind.flag === "mask-directory") args.push("--remount-ro", bind.path);
    if (profile.base === "system") args.push("--remount-ro", "/");
    args.push("--chdir", profile.cwd, "--");

    const cgroup = profile.limits === undefined ? undefined : SandboxCgroup.create(cgroupLimits(profile.limits));
    if (user.switched)
      args.push(
        SETPRIV,
        `--reuid=${user.uid}`,
        `--regid=${user.gid}`,
        "--clear-groups",
        "--bounding-set=-all",
        "--inh-caps=-all",
        "--no-new-privs",
        "--",
      );
    if (profile.limits !== undefined) args.push(PRLIMIT, ...prlimitArgs(profile.limits, processLimit(profile.limits, user)), "--");
    args.push(...argv);

    const bwrap = this.bwrapPath();
    const python = user.switched ? this.python() : undefined;
    const idmapped = [...profile.writable, ...(profile.network.kind === "proxy" ? [profile.network.proxySocket] : [])];
    if (profile.base === "host" && process.env.HOME !== undefined && isAbsolute(process.env.HOME) && process.env.HOME !== "/")
      idmapped.push(process.env.HOME);
    let launch: ReturnType<typeof launchCommand>;
    try {
      launch = launchCommand({
        passFds: profile.passFds ?? [],
        cgroupProcs: cgroup?.procsFiles ?? [],
        env: profile.env,
        seccompFile,
        next: ({ argsFd, seccompFd }) => [
          ...(python === undefined ? [] : [python, "-I", "-S", "-B", IDMAP_SCRIPT, String(user.uid), String(user.gid), ...idmapped, "--"]),
          bwrap,
          "--args",
          String(argsFd),
          "--seccomp",
          String(seccompFd),
          ...args,
        ],
      });
    } catch (error) {
      cgroup?.remove();
      throw error;
    }
    return {
      ...launch,
      programEnv: profile.env,
      release: () => cgroup?.remove(),
      outOfMemory: () => cgroup?.outOfMemory() ?? false,
    };
  }

  /** bubblewrap by absolute path: the launch runs it with no PATH of its own. */
  private bwrapPath(): string {
    this.executable ??= findExecutable(this.bwrap) ?? this.bwrap;
    return this.executable;
  }

  /** The interpreter that runs the idmap step for a root agent, found once; undefined without python3. */
  private python(): string | undefined {
    if (this.helperPython === undefined) {
      // A pyenv shim is a shell script that takes tens of milliseconds: ask the interpreter where it really is.
      const found = spawnSync("python3", ["-I", "-S", "-c", "import sys; print(sys.executable)"], { encoding: "utf8", timeout: 10_000 });
      const path = found.status === 0 ? found.stdout.trim() : "";
      this.helperPython = isAbsolute(path) ? path : null;
    }
    return this.helperPython ?? undefined;
  }
}

function cgroupLimits(limits: ResourceLimits): { processes: number; totalMemoryBytes: number } {
  return { processes: limits.processes, totalMemoryBytes: limits.totalMemoryBytes };
}

/**
 * RLIMIT_NPROC counts a uid's processes per user namespace: per sandbox for an ordinary agent,
 * but machine-wide for a root agent's shared sandbox uid, where the pids cgroup counts instead.
 */
function processLimit(limits: ResourceLimits, user: SandboxUser): number | undefined {
  return user.switched && cgroupSupport().processes ? undefined : limits.processes;
}

/**
 * The folders above `path` that bubblewrap creates on its own tmpfs (the `system` base's root, and
 * `/tmp` in both bases), outermost first. Folders of the host itself are left as they are.
 */
function createdParents(profile: SandboxProfile, path: string): string[] {
  const parents: string[] = [];
  for (let folder = dirname(path); folder !== "/"; folder = dirname(folder)) {
    const onTmpfs = folder.startsWith("/tmp/") || profile.base === "system";
    if (onTmpfs && !SYSTEM_DIRS.includes(folder)) parents.unshift(folder);
  }
  return parents;
}

function findExecutable(name: string): string | undefined {
  if (isAbsolute(name)) return name;
  for (const folder of (process.env.PATH ?? "").split(delimiter)) {
    if (folder === "") continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
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
