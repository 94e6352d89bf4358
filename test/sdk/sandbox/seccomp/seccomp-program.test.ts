// The seccomp program as bytes, rule by rule, on both architectures: run through a classic-BPF
// interpreter (the kernel test, seccomp-enforcement.test.ts, runs the host's program for real).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { assemble, BPF_MAX_INSTRUCTIONS } from "../../../../sdk/src/sandbox/seccomp/bpf-assembler.js";
import { ERRNO } from "../../../../sdk/src/sandbox/seccomp/kernel-constants.js";
import {
  RULE_GROUPS,
  SECCOMP_ARCHES,
  SeccompFilterError,
  type SeccompArch,
  SYSCALL_NUMBERS,
  SYSCALL_RULES,
  type SyscallName,
  type SyscallRule,
  seccompProgram,
  seccompRules,
} from "../../../../sdk/src/sandbox/seccomp/index.js";
import { SECCOMP_RET } from "../../../../sdk/src/sandbox/seccomp/seccomp-program.js";
import type { ArgumentTest } from "../../../../sdk/src/sandbox/seccomp/syscall-rules.js";
import { runSeccompProgram } from "../../support/classic-bpf.js";

const ARCHES = Object.keys(SECCOMP_ARCHES) as SeccompArch[];
/** Bits above an argument's low word, which the kernel ignores for every argument the rules test. */
const HIGH_WORD = 0xdead_beefn << 32n;

function verdict(arch: SeccompArch, syscall: SyscallName, args: readonly bigint[], program = seccompProgram({ arch })): number {
  return runSeccompProgram(program, { nr: SYSCALL_NUMBERS[syscall][arch]!, arch: SECCOMP_ARCHES[arch].auditArch, args });
}

function refusedWith(rule: SyscallRule): number {
  return SECCOMP_RET.ERRNO | ERRNO[rule.errno];
}

/** Values of one argument the test accepts: each listed one, one outside a `noneOf` list, each flag bit. */
function accepted(test: ArgumentTest): bigint[] {
  if ("anyBitOf" in test)
    return [...Array(32).keys()]
      .map((bit) => 1 << bit)
      .filter((bit) => (test.anyBitOf & bit) !== 0)
      .map(BigInt);
  // Bits outside the mask (SOCK_CLOEXEC, SOCK_NONBLOCK over a socket type) do not change the match.
  const outsideMask = test.mask === undefined ? 0n : BigInt(0x80800 & ~test.mask);
  if ("oneOf" in test) return test.oneOf.map((value) => BigInt(value) | outsideMask);
  return [0x1234n];
}

/** Argument vectors the rule must apply to: each test's values in turn, the others at their first. */
function witnesses(rule: SyscallRule): bigint[][] {
  const tests = rule.when ?? [];
  const base: bigint[] = [0n, 0n, 0n, 0n, 0n, 0n];
  for (const test of tests) base[test.arg] = accepted(test)[0]!;
  if (tests.length === 0) return [base];
  return tests.flatMap((test) =>
    accepted(test).map((value) => {
      const args = [...base];
      args[test.arg] = value;
      return args;
    }),
  );
}

/** Calls tools make every day that share a refused call's number: each must reach the kernel. */
const ALLOWED_CALLS: { name: string; syscall: SyscallName; args: bigint[] }[] = [
  { name: "socket(AF_INET, SOCK_STREAM)", syscall: "socket", args: [2n, 1n, 0n] },
  { name: "socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC)", syscall: "socket", args: [10n, 0x80002n, 0n] },
  { name: "socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE)", syscall: "socket", args: [16n, 3n, 0n] },
  { name: "socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC)", syscall: "socketpair", args: [1n, 0x80001n, 0n] },
  { name: "socketpair(AF_UNIX, SOCK_SEQPACKET)", syscall: "socketpair", args: [1n, 5n, 0n] },
  { name: "clone of fork (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD)", syscall: "clone", args: [0x01200011n] },
  { name: "clone of pthread_create (CLONE_VM | CLONE_THREAD | ...)", syscall: "clone", args: [0x003d0f00n] },
  { name: "unshare(CLONE_FILES | CLONE_FS | CLONE_SYSVSEM)", syscall: "unshare", args: [0x40600n] },
  { name: "personality(0xffffffff), the query", syscall: "personality", args: [0xffffffffn] },
  { name: "personality(PER_LINUX32)", syscall: "personality", args: [8n] },
  { name: "ioctl(TIOCGWINSZ)", syscall: "ioctl", args: [1n, 0x5413n] },
  { name: "ioctl(FIONREAD)", syscall: "ioctl", args: [0n, 0x541bn] },
];

describe.each(ARCHES)("the %s program", (arch) => {
  const program = seccompProgram({ arch });
  const refusedNumbers = new Set<number | undefined>(seccompRules({ arch }).map((rule) => SYSCALL_NUMBERS[rule.syscall][arch]));

  it("fits the kernel's bound: whole instructions, at most BPF_MAXINSNS", () => {
    expect(program.length % 8).toBe(0);
    expect(program.length / 8).toBeGreaterThan(seccompRules({ arch }).length);
    expect(program.length / 8).toBeLessThanOrEqual(BPF_MAX_INSTRUCTIONS);
  });

  it("checks the architecture first and kills a call of any other ABI, refused or not", () => {
    expect(program.readUInt16LE(0)).toBe(0x20); // load the word at...
    expect(program.readUInt32LE(4)).toBe(4); // ...seccomp_data.arch,
    expect(program.readUInt16LE(8)).toBe(0x15); // compare it...
    expect(program.readUInt32LE(12)).toBe(SECCOMP_ARCHES[arch].auditArch); // ...with this architecture's.
    const i386 = 0x40000003;
    const arm = 0x40000028;
    const other = ARCHES.filter((name) => name !== arch).map((name) => SECCOMP_ARCHES[name].auditArch);
    for (const foreign of [i386, arm, ...other]) {
      for (const nr of [0, 1, 20, 39, 59, 172, 1000])
        expect(runSeccompProgram(program, { nr, arch: foreign })).toBe(SECCOMP_RET.KILL_PROCESS);
    }
  });

  it("kills x32 numbers (the x86_64 arch with the x32 bit), where the architecture has them", () => {
    const bit = SECCOMP_ARCHES[arch].foreignSyscallBit;
    const native = SECCOMP_ARCHES[arch].auditArch;
    if (bit === undefined) {
      expect(runSeccompProgram(program, { nr: 0x40000000 | 39, arch: native })).toBe(SECCOMP_RET.ALLOW);
      return;
    }
    for (const nr of [0, 39, 41, 101, 165, 512, 547])
      expect(runSeccompProgram(program, { nr: bit | nr, arch: native })).toBe(SECCOMP_RET.KILL_PROCESS);
  });

  it.each(Object.keys(RULE_GROUPS))("refuses every %s rule with its errno, whatever the arguments' high words", (group) => {
    const rules = seccompRules({ arch }).filter((rule) => rule.group === group);
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) {
      for (const args of witnesses(rule)) {
        expect(verdict(arch, rule.syscall, args, program), `${rule.name} ${args}`).toBe(refusedWith(rule));
        expect(
          verdict(
            arch,
            rule.syscall,
            args.map((arg) => arg | HIGH_WORD),
            program,
          ),
          `${rule.name} high word`,
        ).toBe(refusedWith(rule));
      }
    }
  });

  it("lets the everyday calls that share a refused call's number through", () => {
    for (const call of ALLOWED_CALLS) expect(verdict(arch, call.syscall, call.args, program), call.name).toBe(SECCOMP_RET.ALLOW);
  });

  it("lets every other call through", () => {
    for (let nr = 0; nr < 600; nr++) {
      if (refusedNumbers.has(nr)) continue;
      expect(runSeccompProgram(program, { nr, arch: SECCOMP_ARCHES[arch].auditArch, args: [1n, 1n, 1n] }), `nr ${nr}`).toBe(
        SECCOMP_RET.ALLOW,
      );
    }
  });

  it("allowUnixSockets lifts exactly the AF_UNIX rules, and no other verdict changes", () => {
    const lifted = seccompProgram({ arch, allowUnixSockets: true });
    const kept = seccompRules({ arch, allowUnixSockets: true });
    const liftedRules = seccompRules({ arch }).filter((rule) => !kept.includes(rule));
    expect(liftedRules.map((rule) => rule.name)).toEqual(["socket(AF_UNIX)", "socketpair(AF_UNIX, SOCK_DGRAM)"]);
    for (const rule of liftedRules) {
      for (const args of witnesses(rule)) expect(verdict(arch, rule.syscall, args, lifted), rule.name).toBe(SECCOMP_RET.ALLOW);
    }
    for (const rule of kept) {
      for (const args of witnesses(rule)) expect(verdict(arch, rule.syscall, args, lifted), rule.name).toBe(refusedWith(rule));
    }
    for (const call of ALLOWED_CALLS) expect(verdict(arch, call.syscall, call.args, lifted), call.name).toBe(SECCOMP_RET.ALLOW);
  });
});

describe("the rules", () => {
  it("are data a reviewer can read: a unique name, a known call, one reason each, first match decides", () => {
    const names = SYSCALL_RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of SYSCALL_RULES) {
      expect(SYSCALL_NUMBERS[rule.syscall], rule.name).toBeDefined();
      expect(rule.name.startsWith(rule.syscall), rule.name).toBe(true);
      expect(rule.reason, rule.name).toMatch(/^[a-zA-Z_(].{8,}[^.]$/);
      expect(rule.reason, rule.name).not.toContain("\n");
      for (const test of rule.when ?? []) expect(test.arg >= 0 && test.arg <= 5, rule.name).toBe(true);
      // An unconditional rule must be its call's last: rules after it could never apply.
      const later = SYSCALL_RULES.slice(SYSCALL_RULES.indexOf(rule) + 1).filter((other) => other.syscall === rule.syscall);
      if ((rule.when ?? []).length === 0) expect(later, rule.name).toEqual([]);
    }
  });

  it("leave nothing out on either architecture except calls it does not have", () => {
    for (const arch of ARCHES) {
      const missing = SYSCALL_RULES.filter((rule) => !seccompRules({ arch }).includes(rule)).map((rule) => rule.syscall);
      expect(
        missing.every((syscall) => SYSCALL_NUMBERS[syscall][arch] === undefined),
        arch,
      ).toBe(true);
    }
    expect(SYSCALL_RULES.filter((rule) => SYSCALL_NUMBERS[rule.syscall].aarch64 === undefined).map((rule) => rule.name)).toEqual([
      "iopl",
      "ioperm",
      "uselib",
    ]);
  });
});

describe("on a CPU without a table", () => {
  it("refuses to build a program, saying which CPUs have one", () => {
    const arch = Object.getOwnPropertyDescriptor(process, "arch")!;
    Object.defineProperty(process, "arch", { ...arch, value: "riscv64" });
    try {
      expect(() => seccompProgram()).toThrow(SeccompFilterError);
      expect(() => seccompProgram()).toThrow(
        /riscv64; x86_64 and aarch64 have one\). To fix: run on x86_64 or aarch64, or pass sandbox: "off"\./,
      );
      // An explicit architecture needs no host table.
      expect(seccompProgram({ arch: "aarch64" }).length).toBeGreaterThan(0);
    } finally {
      Object.defineProperty(process, "arch", arch);
    }
  });
});

describe("the syscall numbers", () => {
  /** `__NR_<name>` values gcc's preprocessor sees with these lines. */
  function headerNumbers(lines: string[]): Map<string, number> {
    const defines = execFileSync("gcc", ["-dM", "-E", "-"], { input: `${lines.join("\n")}\n`, encoding: "utf8" });
    return new Map([...defines.matchAll(/^#define __NR_(\w+) (\d+)$/gm)].map((match) => [match[1]!, Number(match[2])]));
  }

  function expectColumn(arch: SeccompArch, numbers: Map<string, number>): void {
    const newest = Math.max(...numbers.values());
    for (const [name, column] of Object.entries(SYSCALL_NUMBERS)) {
      const number = column[arch];
      if (numbers.has(name)) expect(number, `${arch} ${name}`).toBe(numbers.get(name));
      // Newer than these headers (open_tree_attr came with Linux 6.15): at least beyond their last.
      else if (number !== undefined) expect(number, `${arch} ${name}`).toBeGreaterThan(newest);
    }
  }

  it("of aarch64 are the kernel's generic table, with the choices arm64's header makes", () => {
    const arm64 = ["RENAMEAT", "NEW_STAT", "SET_GET_RLIMIT", "TIME32_SYSCALLS", "SYS_CLONE3", "MEMFD_SECRET"];
    expectColumn(
      "aarch64",
      headerNumbers([
        "#define __BITS_PER_LONG 64",
        ...arm64.map((want) => `#define __ARCH_WANT_${want}`),
        "#include <asm-generic/unistd.h>",
      ]),
    );
  });

  it("of this machine's architecture are its C library's", () => {
    const host = ARCHES.find((arch) => SECCOMP_ARCHES[arch].nodeArch === process.arch)!;
    expectColumn(host, headerNumbers(["#include <sys/syscall.h>"]));
  });
});

describe("the assembler", () => {
  it("writes struct sock_filter in this machine's byte order and resolves forward jumps", () => {
    const bytes = assemble([
      { op: "load", offset: 4 },
      { op: "jump", test: "eq", value: 0xc000003e, ifTrue: "yes", ifFalse: "no" },
      { op: "label", name: "no" },
      { op: "return", value: SECCOMP_RET.KILL_PROCESS },
      { op: "label", name: "yes" },
      { op: "return", value: SECCOMP_RET.ALLOW },
    ]);
    expect([...bytes]).toEqual([
      ...[0x20, 0, 0, 0, 4, 0, 0, 0],
      ...[0x15, 0, 1, 0, 0x3e, 0, 0, 0xc0],
      ...[0x06, 0, 0, 0, 0, 0, 0, 0x80],
      ...[0x06, 0, 0, 0, 0, 0, 0xff, 0x7f],
    ]);
  });

  it("refuses what the kernel would: a backward or too long jump, a missing label, more than BPF_MAXINSNS", () => {
    const ret = { op: "return", value: 0 } as const;
    expect(() =>
      assemble([{ op: "label", name: "back" }, ret, { op: "jump", test: "eq", value: 0, ifTrue: "back", ifFalse: "back" }]),
    ).toThrow(/back/);
    const far = [
      { op: "jump", test: "eq", value: 0, ifTrue: "end", ifFalse: "end" } as const,
      ...Array(256).fill(ret),
      { op: "label", name: "end" } as const,
      ret,
    ];
    expect(() => assemble(far)).toThrow(/end/);
    expect(() => assemble([{ op: "jump", test: "eq", value: 0, ifTrue: "nowhere", ifFalse: "nowhere" }])).toThrow(/nowhere/);
    expect(() => assemble(Array(BPF_MAX_INSTRUCTIONS + 1).fill(ret))).toThrow(/4096/);
    expect(assemble(Array(BPF_MAX_INSTRUCTIONS).fill(ret)).length).toBe(BPF_MAX_INSTRUCTIONS * 8);
  });
});
