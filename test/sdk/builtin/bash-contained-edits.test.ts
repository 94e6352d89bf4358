import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode } from "@agent-tools/sdk";
import { resolveAsKernel } from "../../../sdk/src/builtin/paths/kernel-path.js";
import { RUNS_LATER, runsLaterProblem } from "../../../sdk/src/builtin/paths/runs-later.js";
import { MAX_DELETED_ENTRIES } from "../../../sdk/src/builtin/shell/contained-edits.js";
import { MAX_EDIT_ENTRIES } from "../../../sdk/src/builtin/shell/edit-targets.js";
import { temporaryDirectory } from "./support.js";

/**
 * Contained edits (docs/command-policy.md#contained-edits), rule by rule, on trees built with fs
 * calls: judged on paths resolved as the kernel resolves them, never a file that runs later, never
 * the working directory itself, its .git, or more than MAX_DELETED_ENTRIES deleted entries git does
 * not ignore (a bigger tree than MAX_EDIT_ENTRIES is not walked at all). The same
 * judgement serves the network-less sandbox (every mode but EXPLORE) and ACCEPT_EDITS without it.
 * Commands are only decided, never run.
 */
const base = temporaryDirectory("builtin-contained-edits-");
const project = join(base.path, "project");
const outside = join(base.path, "outside");
mkdirSync(join(project, "src", "lib"), { recursive: true });
mkdirSync(join(project, ".git", "hooks", "sub"), { recursive: true });
// A repository git would recognise, ignoring what a build or an install makes again.
mkdirSync(join(project, ".git", "objects"));
mkdirSync(join(project, ".git", "refs"));
writeFileSync(join(project, ".git", "HEAD"), "ref: refs/heads/main\n");
writeFileSync(join(project, ".gitignore"), "node_modules/\n/dist\n");
mkdirSync(join(project, "staging", "workflows"), { recursive: true });
mkdirSync(join(project, "template"), { recursive: true });
mkdirSync(join(outside, "docs"), { recursive: true });
writeFileSync(join(project, "src", "a.ts"), "export {};\n");
writeFileSync(join(project, "notes.txt"), "n\n");
writeFileSync(join(project, "staging", "workflows", "ci.yml"), "on: push\n");
writeFileSync(join(project, "template", "package.json"), "{}\n");
writeFileSync(join(project, "template", "README.md"), "t\n");
// out/.. is `outside`, not the project; hk/.. is .git/hooks.
symlinkSync(join(outside, "docs"), join(project, "out"));
symlinkSync(join(project, ".git", "hooks", "sub"), join(project, "hk"));
symlinkSync(outside, join(project, "lnk1"));
symlinkSync(project, join(project, "self"));
for (const [name, count] of [
  ["small", 10],
  ["medium", MAX_DELETED_ENTRIES + 1],
  ["big", MAX_EDIT_ENTRIES + 1],
  ["node_modules", MAX_EDIT_ENTRIES + 1],
  ["dist", MAX_DELETED_ENTRIES + 1],
  [join("src", "dist"), MAX_DELETED_ENTRIES + 1],
] as const) {
  mkdirSync(join(project, name));
  for (let index = 0; index < count; index += 1) writeFileSync(join(project, name, `f${index}`), "");
}
afterAll(() => base.remove());

const sandboxed = new Bash({ cwd: project, sandbox: "required" });
const plain = new Bash({ cwd: project, sandbox: "off" });
const decide = (bash: Bash, command: string, mode: PermissionMode = PermissionMode.DEFAULT, allow: string[] = []) =>
  new PermissionEngine({ mode, workingDirectories: [project], allow }).checkPermission(bash, { command });

/** The sandbox's allowance (DEFAULT) and ACCEPT_EDITS without the sandbox agree on what is contained. */
async function contained(command: string): Promise<boolean> {
  const inSandbox = (await decide(sandboxed, command)).behavior === "allow";
  const acceptEdits = (await decide(plain, command, PermissionMode.ACCEPT_EDITS)).behavior === "allow";
  expect(acceptEdits, `ACCEPT_EDITS and the sandbox disagree on ${command}`).toBe(inSandbox);
  return inSandbox;
}

describe("paths resolved as the kernel does", () => {
  it("follows a link before a later ..", () => {
    expect(resolveAsKernel("out/../x", project)).toBe(join(outside, "x"));
    expect(resolveAsKernel("src/../x", project)).toBe(join(project, "x"));
    expect(resolveAsKernel("hk/../pre-commit", project)).toBe(join(project, ".git", "hooks", "pre-commit"));
    expect(resolveAsKernel("self/self/notes.txt", project)).toBe(join(project, "notes.txt"));
    expect(resolveAsKernel(join(project, "lnk1", "docs", ".."), "/")).toBe(outside);
  });

  it("appends what does not exist yet, and refuses what the kernel would refuse", () => {
    expect(resolveAsKernel("new/dir/file", project)).toBe(join(project, "new", "dir", "file"));
    expect(resolveAsKernel("missing/../x", project)).toBeUndefined();
    expect(resolveAsKernel("notes.txt/x", project)).toBeUndefined();
    const loop = join(base.path, "loop");
    symlinkSync(loop, loop);
    expect(resolveAsKernel("loop/x", base.path)).toBeUndefined();
    const dangling = join(project, "dangling");
    symlinkSync(join(outside, "not-yet"), dangling);
    expect(resolveAsKernel("dangling", project)).toBe(join(outside, "not-yet"));
  });
});

describe("contained edits", () => {
  it.each([
    "echo notes > notes.md",
    "mkdir -p src/lib/deep && touch src/lib/deep/a.ts",
    "cp notes.txt src/",
    "mv notes.txt src/lib/notes.txt",
    "sed -i s/a/b/ src/a.ts",
    "rm -f src/a.ts",
    "rm -rf small",
    "rm -rf node_modules",
    "rm -rf dist small",
    "echo x > src/../x.txt",
    "cp -r src copy",
  ])("allows %j", async (command) => {
    expect(await contained(command)).toBe(true);
  });

  it.each([
    ["a link's .. outside the project", "echo x > out/../x.txt"],
    ["a glob through a link outside", "touch lnk*/pwned"],
    ["a dangling link whose target is outside", "echo x > dangling"],
    ["a .. after a missing folder", "echo x > missing/../x.txt"],
    ["the working directory by another name", `rm -rf ../${"project"}`],
    ["the working directory through a link", "rm -rf self"],
    ["the parent of the working directory", "rm -rf self/.."],
    ["everything, by a glob", "rm -rf */"],
    [".git", "rm -rf .git"],
    ["inside .git", "rm -rf .git/objects"],
    [".git by a glob", "rm -rf .g*"],
    [".git moved away", "mv .git old-git"],
    ["the working directory moved away", "mv self ../elsewhere"],
    [`more than ${MAX_DELETED_ENTRIES} entries git does not ignore`, "rm -rf medium"],
    ["a folder named like an anchored ignore, elsewhere", "rm -rf src/dist"],
    [`more than ${MAX_EDIT_ENTRIES} entries`, "rm -rf big"],
    [`more than ${MAX_EDIT_ENTRIES} entries in two parts`, "rm -rf big/f1 small big"],
    ["find -delete", "find . -name '*.tmp' -delete"],
    ["git clean", "git clean -fdx"],
  ])("asks for %s: %j", async (_, command) => {
    expect(await contained(command)).toBe(false);
    expect((await decide(sandboxed, command)).behavior).toBe("ask");
  });
});

/** A path each entry matches: `*` as `x`, `/**` as one file below. */
function sample(path: string): string {
  return path.replace(/\/\*\*$/, "/x").replaceAll("*", "x");
}

describe("files that run later", () => {
  it("every entry says why it runs later", () => {
    expect(RUNS_LATER.length).toBeGreaterThanOrEqual(50);
    for (const entry of RUNS_LATER) expect(entry.source.length, entry.path).toBeGreaterThan(15);
    expect(new Set(RUNS_LATER.map((entry) => entry.path.toLowerCase())).size).toBe(RUNS_LATER.length);
  });

  it.each(RUNS_LATER.map((entry) => [entry.path, sample(entry.path)]))("%s: a write to %s asks in every mode", async (_, relative) => {
    const path = join(project, "sub", relative);
    expect(runsLaterProblem(path), relative).toMatch(/a file that runs later/);
    for (const command of [`echo x > sub/${relative}`, `cp notes.txt sub/${relative}`]) {
      for (const mode of [PermissionMode.DEFAULT, PermissionMode.ACCEPT_EDITS, PermissionMode.BYPASS]) {
        for (const bash of [sandboxed, plain]) {
          const decision = await decide(bash, command, mode, ["Bash(cp:*)", "Bash(echo:*)"]);
          expect(decision, `${command} ${mode}`).toMatchObject({ behavior: "ask", alwaysAsk: true });
          expect(decision.reason).toContain("fact.runs-later");
        }
      }
      expect((await decide(sandboxed, command, PermissionMode.DONT_ASK)).behavior).toBe("deny");
    }
  });

  it.each([
    ["a folder copied into .github", "cp -r staging/workflows .github/"],
    ["a folder's contents copied into the project", "cp -r template/. ."],
    ["a folder bringing a manifest along", "cp -r template copy"],
    ["a folder moved into place", "mv staging/workflows .github/workflows"],
    ["sed -i on a manifest", "sed -i s/a/b/ template/package.json"],
    ["a name reached through a link", "echo x > hk/../../../Makefile"],
    ["after cd, relative to where the line moved", "cd template && echo x > package.json"],
    ["after cd to a place only known at run time", "cd $DIR && echo x > package.json"],
  ])("asks for %s: %j, sandboxed or not, in BYPASS too", async (_, command) => {
    for (const bash of [sandboxed, plain])
      expect(await decide(bash, command, PermissionMode.BYPASS)).toMatchObject({ behavior: "ask", alwaysAsk: true });
  });

  it("judges protected configuration on the kernel's path too", async () => {
    for (const bash of [sandboxed, plain]) {
      const decision = await decide(bash, "echo x > hk/../pre-commit", PermissionMode.BYPASS);
      expect(decision).toMatchObject({ behavior: "ask", alwaysAsk: true });
      expect(decision.message).toContain(join(".git", "hooks", "pre-commit"));
    }
  });

  it("leaves removals and everyday names alone", async () => {
    expect(await contained("rm template/package.json")).toBe(true);
    expect(await contained("echo x > src/package.ts")).toBe(true);
    expect(await contained("touch src/makefile.md")).toBe(true);
  });
});
