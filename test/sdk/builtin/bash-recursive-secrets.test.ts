import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { temporaryDirectory } from "./support.js";

/**
 * Rule: a recursive read whose tree holds a dangerous file or directory asks. `rg` and `ag` skip
 * hidden entries and (inside a git repository) gitignored ones unless flags widen them; `git grep`
 * reads tracked files only, so gitignored ones are out of its reach; `grep -r` reads everything.
 * Trees are made with fs in a temp directory; the commands are only decided, never run.
 */
const base = temporaryDirectory("builtin-tree-secrets-");
afterAll(() => base.remove());
beforeAll(async () => {
  await loadBashParser();
});

let count = 0;
function tree(files: Record<string, string>, options: { git?: boolean } = {}): string {
  const path = join(base.path, `tree${(count += 1)}`);
  mkdirSync(join(path, "src"), { recursive: true });
  writeFileSync(join(path, "src", "index.ts"), "export {};\n");
  if (options.git) execFileSync("git", ["init", "-q"], { cwd: path });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(path, name, ".."), { recursive: true });
    writeFileSync(join(path, name), text);
  }
  return path;
}

async function behavior(cwd: string, command: string): Promise<string> {
  return (await new PermissionEngine({ workingDirectories: [cwd] }).checkPermission(new Bash({ cwd }), { command })).behavior;
}

async function expectDecisions(cwd: string, expected: Record<string, "allow" | "ask">): Promise<void> {
  const actual: Record<string, string> = {};
  for (const command of Object.keys(expected)) actual[command] = await behavior(cwd, command);
  expect(actual).toEqual(expected);
}

describe("recursive searches and the secrets inside the project", () => {
  it("grep -r asks when the tree holds a .env (a subtree without secrets stays allowed); rg and ag skip the hidden .env", async () => {
    const project = tree({ ".env": "API_KEY=x\n" });
    await expectDecisions(project, {
      "grep -r KEY .": "ask",
      "grep -rn KEY": "ask",
      "grep -R KEY": "ask",
      "grep -r foo src": "allow",
      "grep -rn TODO src": "allow",
      // A value option's argument is not a directory: this reads `.`.
      "grep -r --exclude-dir src KEY": "ask",
      "grep -r -e KEY -- src": "allow",
      "find . -name '*.ts' | xargs grep KEY": "ask",
      "find src -name '*.ts' | xargs grep KEY": "allow",
      "ack KEY": "ask",
      // rg and ag skip the hidden .env unless told to read hidden or ignored files.
      "rg KEY": "allow",
      "ag KEY": "allow",
      "rg --hidden KEY": "ask",
      "rg -uu KEY": "ask",
      "rg -. KEY": "ask",
      "rg -g '.env*' KEY": "ask",
      "rg -g '*.ts' KEY": "allow",
      "ag --hidden KEY": "ask",
      "ag -u KEY": "ask",
    });
  });

  it("a negation in an ignore file (which re-includes hidden files for rg) makes rg ask", async () => {
    await expectDecisions(tree({ ".env": "x\n", ".ignore": "!.env\n" }), { "rg KEY": "ask" });
    await expectDecisions(tree({ "src/.env": "x\n", "src/.rgignore": "!*\n" }), { "rg KEY src": "ask", "rg KEY": "ask" });
    await expectDecisions(tree({ "src/.env": "x\n" }), { "rg KEY src": "allow" });
  });

  it("trusts .gitignore inside a git repository only, and only without flags that widen", async () => {
    const repository = tree({ ".env": "x\n", "certs/dev.pem": "key\n", ".gitignore": ".env\n*.pem\n" }, { git: true });
    await expectDecisions(repository, {
      "rg KEY": "allow",
      "rg --hidden KEY": "allow",
      "git grep KEY": "allow",
      "git grep --untracked KEY": "allow",
      // git prints bare names, which grep could take for options (a tracked file named -f.env).
      "git ls-files | xargs grep KEY": "ask",
      "rg --no-ignore KEY": "ask",
      "rg -u --hidden KEY": "ask",
      "git grep --no-index KEY": "ask",
      "git diff --no-index certs src": "ask",
      "git diff --no-index src src": "allow",
      "grep -r KEY .": "ask",
    });
    // Outside a repository rg does not read .gitignore: the visible key is read.
    await expectDecisions(tree({ "certs/dev.pem": "key\n", ".gitignore": "*.pem\n" }), { "rg KEY": "ask", "rg KEY src": "allow" });
    // Not ignored: a visible key file is read by rg and git grep alike.
    await expectDecisions(tree({ "certs/dev.pem": "key\n" }, { git: true }), {
      "rg KEY": "ask",
      "git grep KEY": "ask",
      "git grep KEY -- src": "allow",
      "cd src && git -C ../certs grep KEY": "ask",
    });
  });

  it("follows symbolic links only when the command does", async () => {
    const outside = tree({ "keys/id_ed25519": "key\n" });
    const project = tree({});
    symlinkSync(join(outside, "keys"), join(project, "src", "vendor"));
    await expectDecisions(project, { "grep -r KEY src": "allow", "grep -R KEY src": "ask", "rg KEY": "allow", "rg -L KEY": "ask" });
  });

  it("reads .git/config for a credential and skips the other git internals", async () => {
    const withToken = tree({}, { git: true });
    writeFileSync(join(withToken, ".git", "config"), '[remote "origin"]\n\turl = https://me:ghp_secret@github.com/me/x\n');
    await expectDecisions(withToken, { "grep -r KEY .": "ask", "grep -r KEY src": "allow" });
  });

  it("walks node_modules as the reader does: by how it walks, not by the folder's name (issue 24)", async () => {
    // A user's .env in a tool's cache inside node_modules; node_modules gitignored, as projects do.
    const cached = tree({ "node_modules/.cache/app/.env": "API_KEY=x\n", ".gitignore": "node_modules/\n" }, { git: true });
    await expectDecisions(cached, {
      "grep -r KEY .": "ask",
      "grep -r KEY node_modules": "ask",
      "grep -r KEY src": "allow",
      // rg and git grep skip what .gitignore ignores; told not to, they read it.
      "rg KEY": "allow",
      "git grep KEY": "allow",
      "rg --hidden --no-ignore KEY": "ask",
    });
    // A package's own key-named fixture is read by grep -r as well.
    expect(await behavior(tree({ "node_modules/pkg/test/fixture.pem": "key\n" }), "grep -r KEY .")).toBe("ask");
  });

  it("judges an installed package's files by name, the user's own files in node_modules by content too", async () => {
    const token = "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n";
    // From the registry's tarball: a package.json directly below node_modules (or its @scope).
    const installed = tree({ "node_modules/pkg/package.json": "{}\n", "node_modules/@scope/lib/package.json": "{}\n" });
    writeFileSync(join(installed, "node_modules/pkg/README.md"), token);
    writeFileSync(join(installed, "node_modules/@scope/lib/example.env.md"), token);
    expect(await behavior(installed, "grep -r KEY .")).toBe("allow");
    // A tool's cache, and a folder with no package.json, are the user's.
    expect(await behavior(tree({ "node_modules/.cache/tool/settings.json": token }), "grep -r KEY .")).toBe("ask");
    expect(await behavior(tree({ "node_modules/notes/todo.txt": token }), "grep -r KEY .")).toBe("ask");
  });

  it("counts a linked workspace package in node_modules as what it leads to, when the reader follows links", async () => {
    const outside = tree({ "secret-dir/id_rsa": "key\n", "secret-dir/package.json": "{}\n" });
    const project = tree({ "node_modules/left-pad/package.json": "{}\n" });
    symlinkSync(join(outside, "secret-dir"), join(project, "node_modules", "pkg"));
    await expectDecisions(project, { "grep -r KEY .": "allow", "grep -R KEY .": "ask", "rg -L --no-ignore KEY": "ask" });
  });

  it("asks when the tree is too deep to check", async () => {
    const project = tree({ [`${Array.from({ length: 30 }, (_, index) => `d${index}`).join("/")}/file.txt`]: "x\n" });
    expect(await behavior(project, "grep -r KEY .")).toBe("ask");
    expect(await behavior(project, "grep -r KEY src")).toBe("allow");
  });
});
