import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine } from "@agent-tools/sdk";
import { loadCorpus, temporaryDirectory } from "./support.js";

// A small project with a repository, built with fs calls.
const project = temporaryDirectory("builtin-bash-everyday-");
for (const directory of ["src", "test", ".git/refs/heads", ".git/objects"]) mkdirSync(join(project.path, directory), { recursive: true });
writeFileSync(join(project.path, ".git", "HEAD"), "ref: refs/heads/main\n");
writeFileSync(join(project.path, ".git", "config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
for (const file of ["src/index.ts", "src/util.ts", "README.md", "CHANGELOG.md", "package.json", "data.csv", "config.yaml"])
  writeFileSync(join(project.path, file), "x\n");
afterAll(() => project.remove());

const bash = new Bash({ cwd: project.path, sandbox: "off" });
const decide = (command: string) => new PermissionEngine({ workingDirectories: [project.path] }).checkPermission(bash, { command });

/** The share of the corpus the measurement must reach (issue 24, "fewer false asks"). */
const REQUIRED_SHARE = 0.95;

describe("everyday read-only commands are auto-allowed in DEFAULT", () => {
  const commands = loadCorpus("bash-everyday-readonly.txt");

  it(`the corpus has at least 200 commands and at least ${REQUIRED_SHARE * 100}% of them are allowed`, async () => {
    expect(commands.length).toBeGreaterThanOrEqual(200);
    const asked: string[] = [];
    for (const command of commands) if ((await decide(command)).behavior !== "allow") asked.push(command);
    const share = (commands.length - asked.length) / commands.length;
    expect(share, `asked: ${asked.join(" | ")}`).toBeGreaterThanOrEqual(REQUIRED_SHARE);
  });

  it.each([
    "git branch --merged",
    "git branch --no-merged main",
    "git clean -n",
    "git clean -nd",
    "git reflog -10",
    "go list -m",
    "cargo metadata --no-deps",
    "docker stats --no-stream",
    "kubectl get secrets",
    "du -sh *",
    'for f in src/*.ts; do wc -l "$f"; done',
    "rg -g '*.ts' x",
    "grep --include='*.ts' -r x .",
    "git grep TODO",
    "top -b -n 1",
    "ip addr",
    "ulimit -a",
    "npx --version",
    "go list -m all",
    // Neither fetches the index nor writes Cargo.lock; no build script runs.
    "cargo tree --frozen",
    "cargo tree -i serde --depth 2 --offline --locked",
    // -check never writes (terraform fmt -help).
    "terraform fmt -check",
    "terraform fmt -check -recursive -diff",
    // The names come from a read-only listing of the repository's tracked files.
    "wc -l $(git ls-files '*.ts')",
    "head -n 3 $(git ls-files src)",
    // The command's own standard streams, whatever this process's stderr leads to.
    `awk '{ if (NF < 2) print "short line " NR > "/dev/stderr" }' data.csv`,
    "sort data.csv > /dev/stdout",
  ])("allows %j", async (command) => {
    expect((await decide(command)).behavior).toBe("allow");
  });

  it.each([
    "git clean -f",
    "git clean -nf",
    "git reflog expire --all",
    "git branch -d --merged x",
    "cargo metadata",
    // Loading packages may download modules (and go.mod's toolchain line may run another go).
    "go list ./...",
    "go list -deps -json ./cmd/tool",
    // May fetch the registry index and write Cargo.lock.
    "cargo tree",
    "cargo tree --offline",
    "go list -compiled ./...",
    "go list -m -toolexec ./x",
    "cargo tree --config build.rustc-wrapper=./wrap",
    "terraform fmt",
    "terraform fmt -recursive",
    // docker inspect prints the container's environment (Config.Env), where credentials are passed.
    "docker inspect web",
    "docker inspect --format '{{json .Config.Env}}' web",
    "wc -l $(cat files.txt)",
    'wc -l "$(git ls-files)"',
    "kubectl get secrets -o yaml",
    "kubectl get secret db -o=jsonpath={.data}",
    "kubectl config view --flatten",
    "top",
    "ulimit -n 10",
    "ip link set eth0 down",
  ])("still asks for %j", async (command) => {
    expect((await decide(command)).behavior).toBe("ask");
  });
});
