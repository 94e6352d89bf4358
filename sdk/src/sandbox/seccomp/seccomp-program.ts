import { assemble, type Instruction } from "./bpf-assembler.js";
import { ERRNO } from "./kernel-constants.js";
import { SeccompFilterError } from "./seccomp-filter-error.js";
import { SECCOMP_ARCHES, type SeccompArch, SYSCALL_NUMBERS, type SyscallName } from "./syscall-numbers.js";
import { type ArgumentTest, SYSCALL_RULES, type SyscallRule } from "./syscall-rules.js";

export interface SeccompOptions {
  /**
   * Let the sandbox make new AF_UNIX sockets and datagram pairs: a network grant reaches the
   * filtering proxy through a unix socket. Default false.
   */
  allowUnixSockets?: boolean;
  /** The architecture to build for; default: this machine's. */
  arch?: SeccompArch;
}

/** Verdicts (linux/seccomp.h). KILL_PROCESS degrades to killing the thread on kernels before 4.14. */
export const SECCOMP_RET = { KILL_PROCESS: 0x80000000, ERRNO: 0x00050000, ALLOW: 0x7fff0000 } as const;

/** Offsets in `struct seccomp_data`: int nr, u32 arch, u64 instruction_pointer, u64 args[6]. */
export const SECCOMP_DATA = { nr: 0, arch: 4, args: 16 } as const;

/** The architecture this process runs on, as the filter names it. */
export function hostSeccompArch(): SeccompArch {
  for (const [arch, spec] of Object.entries(SECCOMP_ARCHES)) if (spec.nodeArch === process.arch) return arch as SeccompArch;
  throw new SeccompFilterError(
    `it has no system-call table for this CPU architecture (${process.arch}; ${Object.keys(SECCOMP_ARCHES).join(" and ")} have one)`,
    'run on x86_64 or aarch64, or pass sandbox: "off"',
  );
}

/** The rules the program holds under these options, in the order it tries them. */
export function seccompRules(options: SeccompOptions = {}): SyscallRule[] {
  const arch = options.arch ?? hostSeccompArch();
  return SYSCALL_RULES.filter(
    (rule) =>
      SYSCALL_NUMBERS[rule.syscall][arch] !== undefined && !(rule.liftedBy === "allowUnixSockets" && options.allowUnixSockets === true),
  );
}

/**
 * The seccomp-BPF program every sandboxed process runs under, as the raw `struct sock_filter[]`
 * bytes `bwrap --seccomp FD` reads (docs/sandbox.md#system-call-filter). It first checks the
 * architecture: a call made through another ABI (i386's `int 0x80`, x32 numbers on x86_64,
 * AArch32 on aarch64) has other numbers, which no deny-list of this architecture's numbers could
 * catch, so it kills the process. Then it refuses the calls of `SYSCALL_RULES` with their errno,
 * and allows everything else.
 *
 * ```ts
 * import { openSync, writeFileSync } from "node:fs";
 * writeFileSync("/tmp/filter.bpf", seccompProgram({ allowUnixSockets: false }));
 * // spawn("bwrap", ["--seccomp", "3", ...], { stdio: ["ignore", "inherit", "inherit", openSync("/tmp/filter.bpf", "r")] })
 * ```
 */
export function seccompProgram(options: SeccompOptions = {}): Buffer {
  const arch = options.arch ?? hostSeccompArch();
  return assemble([...architectureCheck(arch), ...refusals(arch, seccompRules({ ...options, arch })), ret(SECCOMP_RET.ALLOW)]);
}

function architectureCheck(arch: SeccompArch): Instruction[] {
  const spec = SECCOMP_ARCHES[arch];
  const check: Instruction[] = [
    { op: "load", offset: SECCOMP_DATA.arch },
    { op: "jump", test: "eq", value: spec.auditArch, ifTrue: "native-arch", ifFalse: "foreign-arch" },
    { op: "label", name: "foreign-arch" },
    ret(SECCOMP_RET.KILL_PROCESS),
    { op: "label", name: "native-arch" },
    { op: "load", offset: SECCOMP_DATA.nr },
  ];
  if (spec.foreignSyscallBit === undefined) return check;
  return [
    ...check,
    { op: "jump", test: "ge", value: spec.foreignSyscallBit, ifTrue: "foreign-abi", ifFalse: "native-abi" },
    { op: "label", name: "foreign-abi" },
    ret(SECCOMP_RET.KILL_PROCESS),
    { op: "label", name: "native-abi" },
  ];
}

/**
 * One block per refused call: compare the number (in A), and if it matches, try the call's rules
 * in order; every block ends in a return, so A never needs reloading between blocks.
 */
function refusals(arch: SeccompArch, rules: readonly SyscallRule[]): Instruction[] {
  const bySyscall = new Map<SyscallName, SyscallRule[]>();
  for (const rule of rules) bySyscall.set(rule.syscall, [...(bySyscall.get(rule.syscall) ?? []), rule]);
  const code: Instruction[] = [];
  for (const [syscall, callRules] of bySyscall) {
    const next = `after-${syscall}`;
    code.push({ op: "jump", test: "eq", value: SYSCALL_NUMBERS[syscall][arch]!, ifTrue: syscall, ifFalse: next });
    code.push({ op: "label", name: syscall });
    callRules.forEach((rule, index) => {
      if (unconditional(rule) && index < callRules.length - 1) throw new Error(`seccomp rule ${rule.name} hides the rules after it`);
      code.push(...ruleBlock(rule, `${syscall}-rule-${index + 1}`));
    });
    // No rule applied: the call runs.
    if (!unconditional(callRules.at(-1)!)) code.push(ret(SECCOMP_RET.ALLOW));
    code.push({ op: "label", name: next });
  }
  return code;
}

function unconditional(rule: SyscallRule): boolean {
  return rule.when === undefined || rule.when.length === 0;
}

/** The rule's argument tests, then its errno; a failed test goes on to `next`. */
function ruleBlock(rule: SyscallRule, next: string): Instruction[] {
  const code: Instruction[] = [];
  (rule.when ?? []).forEach((test, index) => {
    code.push(...argumentTest(test, `${next}-test-${index + 1}-passed`, next));
    code.push({ op: "label", name: `${next}-test-${index + 1}-passed` });
  });
  code.push(ret(SECCOMP_RET.ERRNO | ERRNO[rule.errno]), { op: "label", name: next });
  return code;
}

function argumentTest(test: ArgumentTest, passed: string, failed: string): Instruction[] {
  const code: Instruction[] = [{ op: "load", offset: SECCOMP_DATA.args + 8 * test.arg }];
  if ("anyBitOf" in test) return [...code, { op: "jump", test: "anyBit", value: test.anyBitOf, ifTrue: passed, ifFalse: failed }];
  if (test.mask !== undefined) code.push({ op: "and", value: test.mask });
  const [values, onMatch, onNoMatch] = "oneOf" in test ? [test.oneOf, passed, failed] : [test.noneOf, failed, passed];
  values.forEach((value, index) => {
    const last = index === values.length - 1;
    code.push({ op: "jump", test: "eq", value, ifTrue: onMatch, ifFalse: last ? onNoMatch : `${passed}-${value}-no` });
    if (!last) code.push({ op: "label", name: `${passed}-${value}-no` });
  });
  return code;
}

function ret(value: number): Instruction {
  return { op: "return", value };
}
