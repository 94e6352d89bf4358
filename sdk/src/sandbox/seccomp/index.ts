// The system-call filter every sandboxed process runs under (docs/sandbox.md#system-call-filter).
export { SeccompFilterError } from "./seccomp-filter-error.js";
export { hostSeccompArch, type SeccompOptions, seccompProgram, seccompRules } from "./seccomp-program.js";
export { seccompProgramFile } from "./seccomp-program-file.js";
export { RULE_GROUPS, type RuleGroup, SYSCALL_RULES, type SyscallRule } from "./syscall-rules.js";
export { SECCOMP_ARCHES, type SeccompArch, SYSCALL_NUMBERS, type SyscallName } from "./syscall-numbers.js";
