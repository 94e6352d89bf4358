import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode, type PermissionEngineOptions } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { parseShellScript } from "../../../sdk/src/builtin/shell/shell-script.js";
import { temporaryDirectory } from "./support.js";

/**
 * stdin that a program reads as instructions or names (issue 24, class 4): a shell with no script
 * operand runs its stdin, `git cat-file --batch` prints what the names on stdin name. Commands are
 * only analysed, never run.
 */
const project = temporaryDirectory("builtin-bash-stdin-");
writeFileSync(join(project.path, "notes.md"), "notes\n");
writeFileSync(join(project.path, ".env"), "API_KEY=x\n");
const bash = new Bash({ cwd: project.path, sandbox: "off" });
beforeAll(async () => {
  await loadBashParser();
});
afterAll(() => project.remove());

function decide(command: string, options: PermissionEngineOptions = {}) {
  return new PermissionEngine({ workingDirectories: [project.path], ...options }).checkPermission(bash, { command });
}

describe("where a command's stdin comes from", () => {
  it.each([
    ["wc -l <<< 'a b'", { kind: "text", text: "a b\n" }],
    ["wc -l <<'EOF'\na\nEOF", { kind: "text" }],
    ["wc -l < f.txt", { kind: "file" }],
    ["wc -l < /dev/null", { kind: "text", text: "" }],
    ["printf x | wc -l", { kind: "pipe" }],
    ["printf x | { wc -l; }", { kind: "pipe" }],
    ["cat <<'EOF' | wc -l\na\nEOF", { kind: "pipe" }],
    ["printf x | wc -l <<< y", { kind: "text", text: "y\n" }],
  ])("%j: wc reads %j", async (command, expected) => {
    const script = await parseShellScript(command);
    const wc = script.commands.find((simple) => simple.words[0]?.value === "wc");
    expect(wc?.stdin).toMatchObject(expected);
  });

  it("leaves the tool's own stdin, and another descriptor's here-string, as nothing read", async () => {
    expect((await parseShellScript("wc -l a.txt")).commands[0]!.stdin).toBeUndefined();
    expect((await parseShellScript("printf x; wc -l")).commands[1]!.stdin).toBeUndefined();
  });
});

describe("a shell reading its script from stdin runs that script's commands", () => {
  it.each([
    "sh <<< 'git push origin main'",
    "bash -s <<< 'git push'",
    "bash -e -o pipefail <<< 'git push'",
    "zsh --norc <<< 'cd /tmp && git push'",
    "dash <<'EOF'\ngit status\ngit push\nEOF",
    "printf 'git push' | sh",
    "cat <<'EOF' | bash\ngit push\nEOF",
    "bash < deploy.sh",
  ])("Bash(git push:*) denies %j", async (command) => {
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.BYPASS])
      expect((await decide(command, { deny: ["Bash(git push:*)"], mode })).behavior).toBe("deny");
  });

  it.each(["sh <<< 'git status'", "bash deploy.sh <<< 'git push'", "bash -c 'git status' <<< 'git push'", "sh < /dev/null"])(
    "Bash(git push:*) leaves %j alone (the script stdin holds does not push, or stdin is not the script)",
    async (command) => {
      expect((await decide(command, { deny: ["Bash(git push:*)"] })).behavior).not.toBe("deny");
    },
  );
});

describe("names read from stdin get the checks of operands", () => {
  it.each([
    ["git cat-file --batch <<< 'HEAD:.env'", "fact.secret-read"],
    ["git cat-file --batch-command <<< 'contents HEAD:.env'", "fact.secret-read"],
    ["git log -p --stdin <<'EOF'\nHEAD\n--\n.env\nEOF", "fact.secret-read"],
  ])("%j asks (%s), as the same name on the command line does", async (command, fact) => {
    const decision = await decide(command);
    expect(decision.behavior).toBe("ask");
    expect(decision.reason).toContain(fact);
  });

  it.each(["printf 'HEAD:notes.md' | git cat-file --batch", "git cat-file --batch < names.txt", "git rev-list HEAD | git log --stdin -p"])(
    "%j is not read-only: the names are only known at run time",
    async (command) => {
      expect(await bash.checkReadOnly({ command })).toBe(false);
      const analysis = await bash.analyse(command);
      expect(analysis.commands.map((part) => part.readOnlyRule)).toContainEqual(
        expect.stringMatching(/^readonly\.git\.\w+(-\w+)?\.stdin\.--/),
      );
    },
  );

  it.each(["git cat-file --batch <<< 'HEAD:notes.md'", "git cat-file --batch < /dev/null", "git ls-files | git cat-file --batch-check"])(
    "%j stays read-only",
    async (command) => {
      expect(await bash.checkReadOnly({ command })).toBe(true);
    },
  );
});
