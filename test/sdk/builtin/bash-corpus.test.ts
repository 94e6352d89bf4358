import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { loadCorpus, temporaryDirectory } from "./support.js";

/**
 * Every corpus command is decided by the real PermissionEngine with the real Bash tool (parsed by
 * tree-sitter-bash, never executed). The unsafe corpus must never be auto-allowed in DEFAULT mode;
 * the safe corpus must always be.
 */
const unsafe = loadCorpus("bash-unsafe.txt");
const safe = loadCorpus("bash-safe.txt");
const project = temporaryDirectory("builtin-corpus-");
mkdirSync(join(project.path, "src"));
// `git -C sub status`: git in a directory that does not exist asks (the line could create it).
mkdirSync(join(project.path, "sub"));
// The analysis alone: the sandbox's contained-edit allowance is measured against it in bash-sandbox-strictness.test.ts.
const bash = new Bash({ cwd: project.path, sandbox: "off" });

beforeAll(async () => {
  await loadBashParser();
});
afterAll(() => project.remove());

async function countProtected(commands: string[]): Promise<number> {
  let count = 0;
  for (const command of commands)
    if (/fact\.(protected-config|runs-later)/.test((await decide(PermissionMode.BYPASS, command)).reason ?? "")) count += 1;
  return count;
}

async function decide(mode: PermissionMode, command: string) {
  return new PermissionEngine({ mode, workingDirectories: [project.path] }).checkPermission(bash, { command });
}

describe("bash corpus", () => {
  it("holds at least 200 unsafe and 100 safe commands", () => {
    expect(unsafe.length).toBeGreaterThanOrEqual(200);
    expect(safe.length).toBeGreaterThanOrEqual(100);
    expect(new Set(unsafe).size).toBe(unsafe.length);
    expect(new Set(safe).size).toBe(safe.length);
  });

  it.each(unsafe.map((command) => [JSON.stringify(command), command]))("does not auto-allow %s in DEFAULT mode", async (_, command) => {
    const decision = await decide(PermissionMode.DEFAULT, command);
    expect(decision.behavior, decision.message).not.toBe("allow");
    expect(await bash.checkReadOnly({ command })).toBe(false);
  });

  it.each(safe.map((command) => [JSON.stringify(command), command]))("auto-allows %s in DEFAULT mode", async (_, command) => {
    const decision = await decide(PermissionMode.DEFAULT, command);
    expect(decision.behavior, decision.message).toBe("allow");
    expect(await bash.checkReadOnly({ command })).toBe(true);
  });

  it("gives these totals per mode (the docs table)", { timeout: 180_000 }, async () => {
    const totals: Record<string, Record<string, number>> = {};
    const acceptEditsAllowed: string[] = [];
    for (const mode of Object.values(PermissionMode)) {
      for (const [corpus, commands] of [
        ["unsafe", unsafe],
        ["safe", safe],
      ] as const) {
        const counts: Record<string, number> = { allow: 0, ask: 0, deny: 0 };
        for (const command of commands) {
          const decision = await decide(mode, command);
          counts[decision.behavior] = (counts[decision.behavior] ?? 0) + 1;
          if (mode === PermissionMode.ACCEPT_EDITS && corpus === "unsafe" && decision.behavior === "allow")
            acceptEditsAllowed.push(command);
        }
        totals[`${mode} ${corpus}`] = counts;
      }
    }
    console.log("Bash corpus decisions per mode:", JSON.stringify(totals, null, 1));
    const n = unsafe.length;
    const s = safe.length;
    expect(totals["default unsafe"]).toEqual({ allow: 0, ask: n, deny: 0 });
    expect(totals["explore unsafe"]).toEqual({ allow: 0, ask: 0, deny: n });
    // BYPASS asks only for writes to configuration that runs code (asked in every mode).
    const protectedWrites = await countProtected(unsafe);
    expect(totals["bypass unsafe"]).toEqual({ allow: n - protectedWrites, ask: protectedWrites, deny: 0 });
    expect(totals["dont_ask unsafe"]).toEqual({ allow: acceptEditsAllowed.length, ask: 0, deny: n - acceptEditsAllowed.length });
    for (const mode of Object.values(PermissionMode)) expect(totals[`${mode} safe`]).toEqual({ allow: s, ask: 0, deny: 0 });
    // ACCEPT_EDITS auto-allows only file commands (and read-only ones) whose paths stay inside the project.
    expect(acceptEditsAllowed.length).toBeGreaterThan(0);
    for (const command of acceptEditsAllowed) {
      for (const { resolved, readOnlyProblem } of (await bash.analyse(command)).commands) {
        expect(
          readOnlyProblem === undefined || ["rm", "touch", "mkdir", "sed", "rmdir", "cp", "mv"].includes(resolved.name ?? ""),
          command,
        ).toBe(true);
      }
    }
    for (const command of acceptEditsAllowed) expect(command).not.toMatch(/curl|python|\/etc|~|\.\./);
  });

  it("asks, bypass-immune, for overlong commands and too many commands", async () => {
    const long = await decide(PermissionMode.DEFAULT, `ls ${"a".repeat(10_001)}`);
    expect(long).toMatchObject({ behavior: "ask", bypassImmune: true });
    const many = await decide(PermissionMode.DEFAULT, Array.from({ length: 51 }, () => "ls").join("; "));
    expect(many).toMatchObject({ behavior: "ask", bypassImmune: true });
    expect((await decide(PermissionMode.DEFAULT, Array.from({ length: 50 }, () => "ls").join("; "))).behavior).toBe("allow");
  });
});
