import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import { pathspecScope } from "../../../sdk/src/builtin/shell/git-pathspec.js";
import { temporaryDirectory } from "./support.js";

/**
 * git pathspecs get the path checks of the paths they name, with the magic as git reads it
 * (issue 24, class 5): `top` is the repository root, not the current directory; exclusions read
 * everything else; git expands wildcards itself, `*` across `/`. A repository built with fs calls;
 * commands are only decided, never run.
 */
const project = temporaryDirectory("builtin-git-pathspecs-");
for (const directory of [".git/refs/heads", ".git/objects", "app/src", "deploy/keys", "docs"])
  mkdirSync(join(project.path, directory), { recursive: true });
writeFileSync(join(project.path, ".git", "HEAD"), "ref: refs/heads/main\n");
writeFileSync(join(project.path, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
writeFileSync(join(project.path, "deploy", "keys", "id_ed25519"), "key\n");
writeFileSync(join(project.path, "app", "src", "index.ts"), "export {};\n");
writeFileSync(join(project.path, "docs", "guide.md"), "guide\n");
const app = join(project.path, "app");
beforeAll(async () => {
  await loadBashParser();
});
afterAll(() => project.remove());

async function behavior(command: string, cwd = app): Promise<string> {
  const engine = new PermissionEngine({ workingDirectories: [project.path] });
  return (await engine.checkPermission(new Bash({ cwd, sandbox: "off" }), { command })).behavior;
}

describe("a pathspec's scope", () => {
  it.each([
    ["src", { fromTop: false, path: "src" }],
    [":(top)deploy", { fromTop: true, path: "deploy" }],
    [":/deploy/keys", { fromTop: true, path: "deploy/keys" }],
    [":/", { fromTop: true, path: "." }],
    [":/:deploy", { fromTop: true, path: "deploy" }],
    ["src/*.ts", { fromTop: false, path: "src" }],
    ["*.pem", { fromTop: false, path: "." }],
    [":(glob)deploy/**/id_*", { fromTop: false, path: "deploy" }],
    [":(icase)DEPLOY", { fromTop: false, path: "." }],
    [":(top,icase)Deploy/Keys", { fromTop: true, path: "." }],
    [":(attr:diff)", { fromTop: false, path: "." }],
    [":(literal)a*b", { fromTop: false, path: "a*b" }],
    [":(top,frobnicate)x", { fromTop: true, path: "." }],
  ])("%j reads %j", (value, scope) => {
    expect(pathspecScope(value)).toEqual(scope);
  });

  it.each([":!src", ":^src", ":(exclude)src", ":/!deploy"])("%j excludes and reads nothing itself", (value) => {
    expect(pathspecScope(value)).toBeUndefined();
  });
});

describe("pathspecs in Bash commands", () => {
  it.each([
    // From app/, the keys are only reached through the repository top.
    "git grep -n TODO -- ':(top)deploy'",
    "git grep TODO -- ':/deploy/*'",
    "git grep TODO -- ':/'",
    "git grep TODO -- ':(top,icase)DEPLOY'",
    "git -C .. grep TODO -- 'deploy/*'",
    "git log -p -- ':(top)deploy/keys/id_ed25519'",
    "git log -p -- ':/deploy/keys/id_ed25519'",
  ])("%j asks (from a subdirectory)", async (command) => {
    expect(await behavior(command)).toBe("ask");
  });

  it.each([
    "git grep TODO -- '*'",
    "git grep TODO -- ':!docs'",
    "git grep TODO -- ':(attr:diff)'",
    "git grep TODO -- ':(icase)DEPLOY'",
    "git grep TODO -- 'dep*'",
  ])("%j asks at the top: it reads the keys", async (command) => {
    expect(await behavior(command, project.path)).toBe("ask");
  });

  it.each([
    ["git grep TODO -- ':(top)docs'", app],
    ["git grep TODO -- ':/app/src/*.ts'", app],
    ["git grep TODO -- 'src/*.ts'", app],
    ["git grep TODO -- ':!deploy' docs", project.path],
    ["git log -p -- ':(top)docs/guide.md'", app],
    ["git grep TODO -- ':(top)app' ':!deploy'", app],
  ])("%j stays allowed in %s: nothing secret in its scope", async (command, cwd) => {
    expect(await behavior(command, cwd)).toBe("allow");
  });
});
