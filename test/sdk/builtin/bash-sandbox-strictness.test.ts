import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode, type PermissionResult } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { loadCorpus, temporaryDirectory } from "./support.js";

/**
 * Property: turning the sandbox on never makes a decision looser than with it off
 * (docs/command-policy.md#contained-edits), except the contained-edit allowance the sandbox
 * itself guarantees (`sandbox.contained-edit`). Every command of the policy corpora, plus
 * commands that go through links this project ships, is decided in every mode by the real engine
 * for a sandboxed and an unsandboxed Bash tool in the same project. Commands are only decided.
 */
const project = temporaryDirectory("builtin-strictness-");
const outside = mkdtempSync("/var/tmp/builtin-strictness-outside-");
mkdirSync(join(project.path, "src"));
mkdirSync(join(project.path, ".git"));
writeFileSync(join(project.path, ".git", "config"), "[core]\n");
writeFileSync(join(project.path, "notes.txt"), "n\n");
mkdirSync(join(outside, "docs"));
symlinkSync(join(outside, "docs"), join(project.path, "out"));
symlinkSync(outside, join(project.path, "lnk1"));
symlinkSync(project.path, join(project.path, "self"));
afterAll(() => {
  project.remove();
  rmSync(outside, { recursive: true, force: true });
});
beforeAll(async () => {
  await loadBashParser();
});

/** Edits through the project's links: written inside, landing outside (or on the project itself). */
const THROUGH_LINKS = [
  "echo x > out/../x.txt",
  "cp notes.txt out/../",
  "mv notes.txt out/../moved.txt",
  "touch lnk*/pwned",
  "mkdir out/../made",
  "sed -i s/a/b/ out/../x.txt",
  "rm -rf out/..",
  "rm -rf self",
  "rm -rf self/.git",
  "echo x > self/../escaped.txt",
  "touch out/../../strictness-probe",
];
const commands = [...loadCorpus("bash-unsafe.txt"), ...loadCorpus("bash-safe.txt"), ...THROUGH_LINKS];
const on = new Bash({ cwd: project.path, sandbox: "required" });
const off = new Bash({ cwd: project.path, sandbox: "off" });

const RANK = { allow: 0, ask: 1, deny: 2 } as const;
const decide = (bash: Bash, command: string, mode: PermissionMode) =>
  new PermissionEngine({ mode, workingDirectories: [project.path] }).checkPermission(bash, { command });

/** Looser: a lower behaviour, or an ASK that allow rules and BYPASS could pass where it was immune. */
function looser(sandboxed: PermissionResult, unsandboxed: PermissionResult): boolean {
  if (RANK[sandboxed.behavior] !== RANK[unsandboxed.behavior]) return RANK[sandboxed.behavior] < RANK[unsandboxed.behavior];
  return sandboxed.behavior === "ask" && unsandboxed.bypassImmune && !sandboxed.bypassImmune;
}

describe("the sandbox never loosens a decision", () => {
  it("is at least as strict in every mode, for every corpus command, but for contained edits", { timeout: 300_000 }, async () => {
    expect(on.sandboxed).toBe(true);
    const loosened: string[] = [];
    const allowances: Record<string, number> = {};
    for (const mode of Object.values(PermissionMode)) {
      allowances[mode] = 0;
      for (const command of commands) {
        const [sandboxed, unsandboxed] = [await decide(on, command, mode), await decide(off, command, mode)];
        if (!looser(sandboxed, unsandboxed)) continue;
        if (sandboxed.behavior === "allow" && sandboxed.reason?.includes("sandbox.contained-edit")) allowances[mode] += 1;
        else loosened.push(`${mode}: ${JSON.stringify(command)} ${unsandboxed.behavior} -> ${sandboxed.behavior} (${sandboxed.reason})`);
      }
    }
    console.log(`sandbox strictness: ${commands.length} commands x 5 modes; contained-edit allowances per mode`, allowances);
    expect(loosened).toEqual([]);
    // The allowance exists (DEFAULT asks for these without the sandbox), and EXPLORE never gets it.
    expect(allowances[PermissionMode.DEFAULT]).toBeGreaterThan(0);
    expect(allowances[PermissionMode.EXPLORE]).toBe(0);
  });

  it.each(THROUGH_LINKS)("an edit through a link is not contained: %j", async (command) => {
    expect((await decide(on, command, PermissionMode.DEFAULT)).behavior).toBe("ask");
  });
});
