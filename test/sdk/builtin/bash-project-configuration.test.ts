import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { loadBashParser } from "../../../sdk/src/builtin/shell/bash-parser.js";
import type { ProgramSpec } from "../../../sdk/src/builtin/shell/policy/command-spec.js";
import { READ_ONLY_SPECS } from "../../../sdk/src/builtin/shell/policy/spec-registry.js";
import { temporaryDirectory } from "./support.js";

/**
 * Rule: a project file that steers a program (a toolchain file, JVM options, a registry) makes
 * the program's read-only forms ask wherever it applies: in the directory the command runs in or
 * one above it, below the home (whose files are the user's own). And a command another command
 * runs gets the checks of the directory it runs in. Trees are built with fs calls; commands are
 * only decided, never run.
 */
const base = temporaryDirectory("builtin-project-configuration-");
const home = join(base.path, "home");
const savedHome = process.env.HOME;
beforeAll(async () => {
  await loadBashParser();
  process.env.HOME = home;
});
afterAll(() => {
  process.env.HOME = savedHome;
  base.remove();
});

let count = 0;
/** A fresh project below the fake home (with a `sub` folder), with `files` written in it. */
function project(files: Record<string, string> = {}, under = join(home, "src")): string {
  const path = join(under, `project${(count += 1)}`);
  mkdirSync(join(path, "sub"), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(path, name, ".."), { recursive: true });
    writeFileSync(join(path, name), text);
  }
  return path;
}

async function decide(cwd: string, command: string) {
  return new PermissionEngine({ workingDirectories: [cwd] }).checkPermission(new Bash({ cwd }), { command });
}

/** Why the analysis finds the command's first part not read-only. */
async function problem(cwd: string, command: string) {
  return (await new Bash({ cwd }).analyse(command)).commands[0]!.readOnlyProblem;
}

/** Every spec with steering files, with the words that reach it. */
function steeredSpecs(specs: readonly ProgramSpec[] = READ_ONLY_SPECS, prefix: string[] = []): { words: string; spec: ProgramSpec }[] {
  return specs.flatMap((spec) => [
    ...(spec.steeredBy ? [{ words: [...prefix, spec.name].join(" "), spec }] : []),
    ...steeredSpecs(spec.subcommands ?? [], [...prefix, spec.name]),
  ]);
}

const steered = steeredSpecs().flatMap(({ words, spec }) =>
  spec.steeredBy!.map((file) => [words, file.path, spec.examples?.readOnly[0] ?? ""] as const),
);

describe("project files that steer a program", () => {
  it("covers the toolchain, JVM and registry files of issue 24 (rust-toolchain, .mvn/jvm.config, .npmrc)", () => {
    const files = new Set(steered.map(([, file]) => file));
    for (const file of ["rust-toolchain.toml", "rust-toolchain", ".mvn/jvm.config", ".npmrc"]) expect(files).toContain(file);
  });

  it.each(steered)("%s with %s: asks where the file applies, allows elsewhere (%s)", async (_, file, command) => {
    expect(command, "every steered spec has a read-only example").not.toBe("");
    expect((await decide(project(), command)).behavior, "a project without the file").toBe("allow");
    const steeredProject = project({ [file]: "x\n" });
    expect((await decide(steeredProject, command)).behavior).toBe("ask");
    expect(await problem(steeredProject, command)).toContain(`${file} steers`);
    // In a folder above the project (a monorepo's root), and through a `cd` into a folder that has it.
    const parent = project({ [file]: "x\n" });
    expect((await decide(project({}, parent), command)).behavior).toBe("ask");
    expect((await decide(project(), `cd ${parent} && ${command}`)).behavior).toBe("ask");
    // The home's own file is the user's configuration, not the checkout's.
    mkdirSync(join(home, file, ".."), { recursive: true });
    writeFileSync(join(home, file), "x\n");
    expect((await decide(project(), command)).behavior).toBe("allow");
  });

  it("asks for a steered program in a directory only known at run time", async () => {
    const clean = project();
    expect((await decide(clean, "cd $DIR && cargo --version")).behavior).toBe("ask");
    expect((await decide(clean, "find . -maxdepth 1 -type d -execdir cargo --version \\;")).behavior).toBe("ask");
  });
});

describe("commands another command runs get the checks of the directory they run in", () => {
  const fsmonitorRepository = () => {
    const path = project({ "README.md": "x\n" });
    for (const folder of ["objects", "refs/heads"]) mkdirSync(join(path, ".git", folder), { recursive: true });
    writeFileSync(join(path, ".git", "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(path, ".git", "config"), "[core]\n\tfsmonitor = ./watch.sh\n");
    return path;
  };

  it("find -exec git: the repository of find's directory", async () => {
    const repository = fsmonitorRepository();
    const command = "find . -maxdepth 0 -exec git status \\;";
    expect((await decide(repository, command)).behavior).toBe("ask");
    expect(await problem(repository, command)).toContain("core.fsmonitor");
    expect((await decide(project(), command)).behavior).toBe("allow");
  });

  it("find -execdir git: each match's directory, only known at run time", async () => {
    const parent = project();
    const command = "find sub -maxdepth 0 -type d -execdir git -C {} status \\;";
    expect((await decide(parent, command)).behavior).toBe("ask");
    expect(await problem(parent, command)).toContain("only known at run time");
  });
});
