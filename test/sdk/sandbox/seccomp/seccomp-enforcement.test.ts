// The system-call filter in a real kernel: a C probe, compiled here, attempts each refused call
// (and what must keep working) inside bubblewrap with the project's own argv plus `--seccomp 3`,
// as root and as an unprivileged user (docs/sandbox.md#system-call-filter).
import { execFile, spawn } from "node:child_process";
import { chmod, copyFile, rm } from "node:fs/promises";
import { constants } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ERRNO } from "../../../../sdk/src/sandbox/seccomp/kernel-constants.js";
import { RULE_GROUPS, type SyscallRule, seccompRules } from "../../../../sdk/src/sandbox/seccomp/index.js";
import { type FilteredSandbox, runFiltered } from "../../support/filtered-sandbox.js";
import { TempDirs } from "../../support/temp-dirs.js";

const FIXTURES = join(import.meta.dirname, "../../../fixtures/seccomp");

/** Probe checks of the rules that take arguments: several per rule, so a rule is tried on more than one value. */
const CHECKS_OF_RULE: Record<string, string[]> = {
  "socket(AF_UNIX)": ["socket(AF_UNIX, SOCK_STREAM)", "socket(AF_UNIX, SOCK_DGRAM)"],
  "socketpair(AF_UNIX, SOCK_DGRAM)": ["socketpair(AF_UNIX, SOCK_DGRAM)"],
  "socket(AF_NETLINK, other than NETLINK_ROUTE)": [
    "socket(AF_NETLINK, NETLINK_AUDIT)",
    "socket(AF_NETLINK, NETLINK_KOBJECT_UEVENT)",
    "socket(AF_NETLINK, NETLINK_GENERIC)",
    "socket(AF_NETLINK, NETLINK_SOCK_DIAG)",
  ],
  "socket(families other than AF_INET, AF_INET6, AF_NETLINK, AF_UNIX)": ["socket(AF_VSOCK)", "socket(AF_PACKET)", "socket(AF_ALG)"],
  "unshare(namespace flags)": [
    "unshare(CLONE_NEWUSER)",
    "unshare(CLONE_NEWNET)",
    "unshare(CLONE_NEWNS)",
    "unshare(CLONE_NEWTIME)",
    "unshare(CLONE_NEWPID|CLONE_NEWIPC|CLONE_NEWUTS|CLONE_NEWCGROUP)",
  ],
  "clone(namespace flags)": ["clone(CLONE_NEWUSER)", "clone(CLONE_NEWNET)"],
  "personality(other than the ordinary values)": ["personality(ADDR_NO_RANDOMIZE)", "personality(READ_IMPLIES_EXEC)"],
  "ioctl(TIOCSTI)": ["ioctl(TIOCSTI)"],
  "ioctl(TIOCLINUX)": ["ioctl(TIOCLINUX)"],
};

/** Probe checks of what tools need, neighbours of the refused calls included: each must succeed. */
const MUST_WORK = [
  "socketpair(AF_UNIX, SOCK_STREAM)",
  "socketpair(AF_UNIX, SOCK_SEQPACKET)",
  "socket(AF_NETLINK, NETLINK_ROUTE)",
  "socket(AF_INET)",
  "socket(AF_INET6)",
  "unshare(CLONE_FILES|CLONE_FS|CLONE_SYSVSEM)",
  "clone(SIGCHLD)",
  "personality(query)",
  "personality(PER_LINUX32)",
  "adjtimex(read)",
  "ioctl(FIONREAD)",
  "fork",
  "execve",
  "pthread_create",
  "getaddrinfo(localhost, AI_ADDRCONFIG)",
  "getifaddrs",
];

/** Calls through another ABI than x86_64's own (the probe has them on x86_64 only). */
const FOREIGN_ABI = ["i386 int 0x80 getpid", "x32 getpid"];

/**
 * Rules whose probe the kernel refuses with EPERM even without the filter: they need a capability
 * of the machine's initial user namespace, which no sandbox holds (the filter keeps them refused
 * should a capability ever leak). Every other rule must fail differently without the filter.
 */
const KERNEL_REFUSES_TOO = new Set([
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "swapon",
  "swapoff",
  "acct",
  "syslog",
  "vhangup",
]);

function checksOf(rule: SyscallRule): string[] {
  return CHECKS_OF_RULE[rule.name] ?? [rule.name];
}

type Results = Map<string, string>;

const temp = new TempDirs();
let probeDir: string;
let probe: string;

beforeAll(async () => {
  // World-readable, so the unprivileged run can bind and execute it too.
  probeDir = await temp.make("agent-tools-seccomp-probe-");
  await chmod(probeDir, 0o755);
  probe = join(probeDir, "seccomp-probe");
  await copyFile(join(FIXTURES, "seccomp-probe.c"), `${probe}.c`);
  await copyFile(join(FIXTURES, "datagram-sender.py"), join(probeDir, "datagram-sender.py"));
  await promisify(execFile)("gcc", ["-O1", "-Wall", "-Werror", "-pthread", "-o", probe, `${probe}.c`]);
});

afterAll(() => temp.removeAll());

type Sandbox = Omit<FilteredSandbox, "readOnly">;

async function runProbe(sandbox: Sandbox, checks: string[]): Promise<Results> {
  const run = await runFiltered({ ...sandbox, readOnly: [probeDir] }, [probe, ...checks]);
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const results: Results = new Map(
    run.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t") as [string, string]),
  );
  expect([...results.keys()]).toEqual(checks);
  return results;
}

const refused = (rule: SyscallRule) => `errno ${ERRNO[rule.errno]}`;

describe("the probe", () => {
  it("has a check for every rule, and the test classifies every check", async () => {
    const { stdout } = await promisify(execFile)(probe, ["--list"]);
    const listed = stdout.trim().split("\n");
    const classified = [...seccompRules().flatMap(checksOf), ...MUST_WORK, ...(process.arch === "x64" ? FOREIGN_ABI : [])];
    expect([...listed].sort()).toEqual([...classified].sort());
  });
});

describe.each(["root", "nobody"] as const)("as %s, a sandboxed process", (user) => {
  const rules = seccompRules();
  const allChecks = [...rules.flatMap(checksOf), ...MUST_WORK, ...(process.arch === "x64" ? FOREIGN_ABI : [])];
  let filtered: Results;
  let control: Results;

  beforeAll(async () => {
    filtered = await runProbe({ user, filter: {} }, allChecks);
    // Without the filter, and with every capability of the sandbox's user namespace, a call reaches the
    // kernel's own checks: where their answer differs from the filter's, the filter is what refused it.
    // Always as root: an unprivileged bwrap's capabilities do not reach the mount and reboot calls' checks.
    control = await runProbe({ user: "root", filter: "control" }, allChecks);
  });

  it.each(Object.entries(RULE_GROUPS))("%s: each call fails with the rule's errno (%s)", (group) => {
    const ofGroup = rules.filter((rule) => rule.group === group);
    expect(ofGroup.length).toBeGreaterThan(0);
    for (const rule of ofGroup) {
      for (const check of checksOf(rule)) expect(filtered.get(check), check).toBe(refused(rule));
      if (KERNEL_REFUSES_TOO.has(rule.name)) continue;
      const differing = checksOf(rule).filter((check) => control.get(check) !== filtered.get(check));
      expect(differing, `${rule.name}: without the filter ${checksOf(rule).map((check) => control.get(check))}`).not.toEqual([]);
    }
  });

  it("keeps everything tools need: socketpair, fork, exec, threads, clone, name resolution, netlink routes", () => {
    for (const check of MUST_WORK) expect(filtered.get(check), check).toBe("ok");
  });

  it.runIf(process.arch === "x64")("is killed by SIGSYS when it calls through another ABI (i386 int 0x80, x32)", () => {
    const sigsys = `signal ${constants.signals.SIGSYS}`;
    expect(filtered.get("x32 getpid")).toBe(sigsys);
    // Without the filter, a kernel with the i386 ABI answers the call (here it does); one booted
    // without it (ia32_emulation=false) kills the caller itself, before any filter runs.
    const i386 = "i386 int 0x80 getpid";
    if (control.get(i386)!.startsWith("signal")) expect(filtered.get(i386)).toBe(control.get(i386));
    else expect(filtered.get(i386)).toBe(sigsys);
  });

  it("runs everyday programs: sh, ls, git, python3 (threads, subprocess, getaddrinfo), node (libuv without io_uring)", async () => {
    const programs = [
      { argv: ["/bin/sh", "-c", "echo $(( 6 * 7 )) | cat"], output: "42\n" },
      { argv: ["/bin/ls", probeDir], output: "datagram-sender.py\nseccomp-probe\nseccomp-probe.c\n" },
      { argv: ["/usr/bin/git", "--version"], output: /^git version \d/ },
      {
        argv: [
          "/usr/bin/python3",
          "-c",
          "import socket, subprocess, threading; t = threading.Thread(target=print); t.start(); t.join(); " +
            "print(socket.getaddrinfo('localhost', 80)[0][4][0], subprocess.run(['true']).returncode)",
        ],
        output: "\n127.0.0.1 0\n",
      },
      {
        argv: [
          process.execPath,
          "-e",
          "require('fs').promises.readFile('/etc/passwd', 'utf8').then((text) => console.log(text.startsWith('root:')))",
        ],
        output: "true\n",
      },
    ];
    for (const { argv, output } of programs) {
      const run = await runFiltered({ user, filter: {}, readOnly: [probeDir] }, argv);
      expect(run.stderr, argv.join(" ")).toBe("");
      expect(run.code, argv.join(" ")).toBe(0);
      if (typeof output === "string") expect(run.stdout).toBe(output);
      else expect(run.stdout).toMatch(output);
    }
  });

  it(
    "cannot reach a datagram socket outside, on a read-only mount, " + "by a new socket or a datagram pair (which both do unfiltered)",
    async () => {
      const socketPath = join(probeDir, `outside-${user}.sock`);
      const listener = spawn("python3", [join(FIXTURES, "datagram-listener.py"), socketPath], { stdio: ["pipe", "pipe", "inherit"] });
      try {
        let received = "";
        listener.stdout.on("data", (chunk) => (received += chunk));
        await vi.waitFor(() => expect(received).toBe("ready\n"), { timeout: 10_000 });
        const send = async (filter: FilteredSandbox["filter"]) => {
          const run = await runFiltered({ user, filter, readOnly: [probeDir] }, [
            "/usr/bin/python3",
            `${probeDir}/datagram-sender.py`,
            socketPath,
          ]);
          expect(run.stderr).toBe("");
          return run.stdout;
        };
        expect(await send({})).toBe(`new-socket errno ${ERRNO.EPERM}\nsocketpair errno ${ERRNO.EPERM}\n`);
        expect(await send("none")).toBe("new-socket sent\nsocketpair sent\n");
        await vi.waitFor(() => expect(received).toBe("ready\nnew-socket\nsocketpair\n"), { timeout: 10_000 });
      } finally {
        listener.stdin.end();
        await new Promise((resolve) => listener.on("close", resolve));
        await rm(socketPath, { force: true });
      }
    },
  );

  it("with allowUnixSockets, makes AF_UNIX sockets and datagram pairs, and nothing else changes", async () => {
    const lifted = await runProbe({ user, filter: { allowUnixSockets: true } }, allChecks);
    const unixChecks = [...CHECKS_OF_RULE["socket(AF_UNIX)"]!, ...CHECKS_OF_RULE["socketpair(AF_UNIX, SOCK_DGRAM)"]!];
    for (const check of unixChecks) expect(lifted.get(check), check).toBe("ok");
    for (const check of allChecks.filter((check) => !unixChecks.includes(check)))
      expect(lifted.get(check), check).toBe(filtered.get(check));
  });
});
