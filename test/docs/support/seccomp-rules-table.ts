import { RULE_GROUPS, SYSCALL_NUMBERS, SYSCALL_RULES } from "../../../sdk/src/sandbox/seccomp/index.js";
import type { GeneratedBlock } from "./generated-block.js";

const START = "<!-- seccomp-rules:start (generated from SYSCALL_RULES by test/docs/write-seccomp-rules.ts) -->";
const END = "<!-- seccomp-rules:end -->";

/** The refused calls as docs/sandbox.md shows them: one table, a bold row per group, a reason per call. */
function renderSeccompRules(): string {
  const rows = ["| refused call | fails with | why |", "|---|---|---|"];
  for (const [group, title] of Object.entries(RULE_GROUPS)) {
    rows.push(`| **${title}** | | |`);
    for (const rule of SYSCALL_RULES.filter((candidate) => candidate.group === group)) {
      const notes = [
        rule.liftedBy === undefined ? "" : " (allowed with a network grant)",
        SYSCALL_NUMBERS[rule.syscall].aarch64 === undefined ? " (x86_64 only)" : "",
      ].join("");
      rows.push(`| \`${rule.name}\`${notes} | ${rule.errno} | ${rule.reason.replaceAll("|", "\\|")} |`);
    }
  }
  return `${START}\n${rows.join("\n")}\n${END}`;
}

export const SECCOMP_RULES_BLOCK: GeneratedBlock = { page: "docs/sandbox.md", start: START, end: END, render: renderSeccompRules };
