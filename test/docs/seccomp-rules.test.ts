import { describe, expect, it } from "vitest";
import { SYSCALL_RULES } from "../../sdk/src/sandbox/seccomp/index.js";
import { readPage } from "./support/markdown-pages.js";
import { SECCOMP_RULES_BLOCK } from "./support/seccomp-rules-table.js";

describe("docs/sandbox.md's table of refused system calls", () => {
  it("is the one generated from SYSCALL_RULES (regenerate: npx tsx test/docs/write-seccomp-rules.ts)", () => {
    const table = SECCOMP_RULES_BLOCK.render();
    for (const rule of SYSCALL_RULES) expect(table).toContain(`| \`${rule.name}\``);
    expect(table).toContain("| `clone3` | ENOSYS |");
    const page = readPage(SECCOMP_RULES_BLOCK.page);
    expect(page).toContain(table);
    // Inside the section that explains it.
    expect(page.indexOf(table)).toBeGreaterThan(page.indexOf("## System-call filter"));
  });
});
