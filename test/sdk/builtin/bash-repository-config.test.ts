import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode, type PermissionEngineOptions } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { temporaryDirectory } from "./support.js";

/**
 * Rule: a git command is auto-allowed as read-only only when the repository it runs in has no
 * setting that makes that subcommand run a program. Each repository is made with `git init` and
 * its config written as text; the commands are only decided, never run.
 */
const base = temporaryDirectory("builtin-git-config-");
afterAll(() => base.remove());
beforeAll(async () => {
  await loadBashParser();
});

let count = 0;
/** A fresh repository whose `.git/config` gets `config` appended (and `files` written below it). */
function repository(config = "", files: Record<string, string> = {}): string {
  const path = join(base.path, `repo${(count += 1)}`);
  mkdirSync(path);
  execFileSync("git", ["init", "-q"], { cwd: path });
  mkdirSync(join(path, "src"));
  writeFileSync(join(path, ".git", "config"), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n${config}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(path, name, ".."), { recursive: true });
    writeFileSync(join(path, name), text);
  }
  return path;
}

function decide(cwd: string, command: string, options: PermissionEngineOptions = {}) {
  return new PermissionEngine({ workingDirectories: [cwd], ...options }).checkPermission(new Bash({ cwd }), { command });
}

const immuneAsk = { behavior: "ask", bypassImmune: true };

describe("git read-only commands and the repository's own config", () => {
  it("allows git status, log and diff in a clean repository", async () => {
    const clean = repository();
    for (const command of ["git status", "git log -1", "git diff", "git log -p -1", "cd src && git status", "git grep TODO"]) {
      expect((await decide(clean, command)).behavior, command).toBe("allow");
    }
  });

  it("asks, bypass-immune, when core.fsmonitor names a program (any spelling of the key)", async () => {
    const evil = repository('[Core]\n\tFsMonitor = "sh -c id"\n');
    expect(await decide(evil, "git status")).toMatchObject(immuneAsk);
    expect((await decide(evil, "git status", { mode: PermissionMode.DONT_ASK })).behavior).toBe("deny");
    expect(await decide(evil, "git status", { allow: ["Bash(git status:*)"] })).toMatchObject(immuneAsk);
    expect((await decide(evil, "git status")).message).toContain("core.fsmonitor");
    // git's own daemon and "off" run nothing foreign.
    expect((await decide(repository("[core]\n\tfsmonitor = false\n"), "git status")).behavior).toBe("allow");
    expect((await decide(repository("[core]\n\tfsmonitor = true\n"), "git status")).behavior).toBe("allow");
  });

  it("follows the directory git runs in: cd, -C, subdirectories, .git files, bare repositories", async () => {
    const evil = repository('[core]\n\tfsmonitor = "sh -c id"\n');
    const clean = repository();
    expect(await decide(clean, `cd ${evil} && git status`)).toMatchObject(immuneAsk);
    expect(await decide(clean, `git -C ${evil} status`)).toMatchObject(immuneAsk);
    expect(await decide(join(evil, "src"), "git log -1")).toMatchObject(immuneAsk);
    // The repository is unknown: `cd $X` / `-C $X` ask.
    expect((await decide(clean, "git -C $X status")).behavior).toBe("ask");
    expect((await decide(clean, "cd $X && git status")).behavior).toBe("ask");
    // A worktree whose .git file points at a git directory elsewhere.
    const linked = join(base.path, "linked");
    mkdirSync(linked);
    writeFileSync(join(linked, ".git"), `gitdir: ${join(evil, ".git")}\n`);
    expect(await decide(linked, "git status")).toMatchObject(immuneAsk);
    // The git directory itself, as git finds a bare repository.
    expect(await decide(join(evil, ".git"), "git log")).toMatchObject(immuneAsk);
    // A nested `.git` git would reject (HEAD names nothing) does not hide the repository above it.
    mkdirSync(join(evil, "src", ".git", "objects"), { recursive: true });
    mkdirSync(join(evil, "src", ".git", "refs"));
    writeFileSync(join(evil, "src", ".git", "HEAD"), "garbage\n");
    expect(await decide(join(evil, "src"), "git status")).toMatchObject(immuneAsk);
  });

  it("asks for diff programs on the subcommands that diff, not on the others", async () => {
    const external = repository("[diff]\n\texternal = ./x.sh\n");
    expect(await decide(external, "git diff")).toMatchObject(immuneAsk);
    expect(await decide(external, "git show HEAD")).toMatchObject(immuneAsk);
    expect((await decide(external, "git ls-files")).behavior).toBe("allow");
    const textconv = repository('[diff "pdf"]\n\ttextconv = ./convert.sh\n', { ".gitattributes": "*.pdf diff=pdf\n" });
    expect(await decide(textconv, "git log -p")).toMatchObject(immuneAsk);
    expect(await decide(textconv, "git blame README.md")).toMatchObject(immuneAsk);
    expect((await decide(textconv, "git rev-parse HEAD")).behavior).toBe("allow");
  });

  it("asks for clean/smudge filters on every subcommand", async () => {
    const filtered = repository('[filter "x"]\n\tclean = ./clean.sh\n', { ".gitattributes": "* filter=x\n" });
    expect(await decide(filtered, "git status")).toMatchObject(immuneAsk);
    expect(await decide(filtered, "git ls-files")).toMatchObject(immuneAsk);
  });

  it("asks for configured pagers unless paging is turned off", async () => {
    const paged = repository("[core]\n\tpager = sh -c id\n");
    expect(await decide(paged, "git log")).toMatchObject(immuneAsk);
    expect((await decide(paged, "git --no-pager log")).behavior).toBe("allow");
    expect((await decide(paged, "git -P log")).behavior).toBe("allow");
    const perCommand = repository('[pager]\n\tlog = "sh -c id"\n');
    expect(await decide(perCommand, "git log")).toMatchObject(immuneAsk);
    expect((await decide(repository("[pager]\n\tbranch = false\n"), "git branch")).behavior).toBe("allow");
  });

  it("follows include.path and includeIf to the files they pull in", async () => {
    const included = repository("[include]\n\tpath = extra.conf\n", { ".git/extra.conf": "[core]\n\tfsmonitor = ./run.sh\n" });
    expect(await decide(included, "git status")).toMatchObject(immuneAsk);
    const conditional = repository('[includeIf "gitdir:/"]\n\tpath = ../conditional.conf\n', {
      "conditional.conf": "[diff]\n\texternal = ./x.sh\n",
    });
    expect(await decide(conditional, "git diff")).toMatchObject(immuneAsk);
    expect((await decide(repository("[include]\n\tpath = missing.conf\n"), "git status")).behavior).toBe("allow");
  });

  it("asks when a hook that read commands trigger exists (post-index-change), in .git/hooks or core.hooksPath", async () => {
    expect(await decide(repository("", { ".git/hooks/post-index-change": "#!/bin/sh\nid\n" }), "git status")).toMatchObject(immuneAsk);
    const hooksPath = repository("[core]\n\thooksPath = tools/hooks\n", { "tools/hooks/post-index-change": "#!/bin/sh\nid\n" });
    expect(await decide(hooksPath, "git diff")).toMatchObject(immuneAsk);
    expect((await decide(hooksPath, "git log -1")).behavior).toBe("allow");
    // Commit hooks (husky) do not run on reads.
    expect(
      (await decide(repository("[core]\n\thooksPath = .husky/_\n", { ".husky/_/pre-commit": "#!/bin/sh\n" }), "git status")).behavior,
    ).toBe("allow");
  });

  it("asks in a partial clone (reads fetch from the promisor remote) and when core.worktree points elsewhere", async () => {
    const partial = repository(
      '[remote "origin"]\n\turl = https://example.com/x.git\n\tpromisor = true\n[extensions]\n\tpartialClone = origin\n',
    );
    expect(await decide(partial, "git log -p")).toMatchObject({ behavior: "ask", bypassImmune: true });
    const moved = repository("[core]\n\tworktree = /\n");
    expect(await decide(moved, "git status")).toMatchObject({ behavior: "ask", bypassImmune: true });
    const plain = repository('[remote "origin"]\n\tpromisor = false\n');
    expect((await decide(plain, "git log -p")).behavior).toBe("allow");
  });

  it("asks for signature and network programs only where they run", async () => {
    const gpg = repository("[gpg]\n\tprogram = ./fake-gpg\n");
    expect(await decide(gpg, "git log --show-signature")).toMatchObject(immuneAsk);
    expect((await decide(gpg, "git status")).behavior).toBe("allow");
    const ssh = repository("[core]\n\tsshCommand = sh -c id\n");
    expect(await decide(ssh, "git remote show origin")).toMatchObject(immuneAsk);
    expect((await decide(ssh, "git status")).behavior).toBe("allow");
  });

  it("asks for core.alternateRefsCommand on every subcommand (it runs wherever git lists an alternate's refs)", async () => {
    const alternate = repository("[core]\n\talternateRefsCommand = ./refs.sh\n");
    expect(await decide(alternate, "git log --alternate-refs --oneline")).toMatchObject(immuneAsk);
    expect(await decide(alternate, "git rev-list --alternate-refs HEAD")).toMatchObject(immuneAsk);
    expect((await decide(alternate, "git status")).message).toContain("core.alternaterefscommand");
    expect((await decide(repository("[core]\n\talternateRefsPrefixes = refs/heads/\n"), "git log --oneline")).behavior).toBe("allow");
  });

  it("asks when git runs in a directory that does not exist yet (the line may create it, config included)", async () => {
    const clean = repository();
    expect(await decide(clean, "git -C copy status")).toMatchObject(immuneAsk);
    expect(await decide(clean, "cp -rP elsewhere copy && git -C copy status")).toMatchObject(immuneAsk);
    expect(await decide(clean, "mkdir -p n/.git && git -C n log")).toMatchObject(immuneAsk);
    expect(await decide(clean, "mkdir fresh && cd fresh && git status")).toMatchObject(immuneAsk);
    expect((await decide(clean, "git -C src status")).behavior).toBe("allow");
    // git version runs nothing a repository configures, wherever it is asked.
    expect((await decide(clean, "git -C missing version")).behavior).toBe("allow");
  });

  it("checks checked-out submodules, whose own config git status uses", async () => {
    const parent = repository("", { ".gitmodules": '[submodule "lib"]\n\tpath = lib\n\turl = https://example.invalid/lib\n' });
    expect((await decide(parent, "git status")).behavior).toBe("allow");
    mkdirSync(join(parent, "lib"));
    execFileSync("git", ["init", "-q"], { cwd: join(parent, "lib") });
    writeFileSync(join(parent, "lib", ".git", "config"), "[core]\n\tfsmonitor = ./x.sh\n");
    expect(await decide(parent, "git status")).toMatchObject(immuneAsk);
  });

  it("allows git outside any repository (only the user's own config applies)", async () => {
    const plain = join(base.path, "plain");
    mkdirSync(plain);
    expect((await decide(plain, "git status")).behavior).toBe("allow");
  });
});
