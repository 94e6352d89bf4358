import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, PermissionMode, type PermissionEngineOptions } from "@agent-tools/sdk";
import { temporaryDirectory } from "./support.js";

/**
 * Rules against commands that try to talk around them: deny rules match the normalised program,
 * allow rules cover only the commands they name, facts about the command come before any allow
 * rule, and suggestions never widen into running any code. Commands are only analysed, never run.
 */
const project = temporaryDirectory("builtin-bash-rules-");
mkdirSync(join(project.path, "src"));
writeFileSync(join(project.path, ".env"), "KEY=1\n");
afterAll(() => project.remove());
// Rules without the sandbox's contained-edit allowance (tested in bash-sandbox-permission.test.ts).
const bash = new Bash({ cwd: project.path, sandbox: "off" });

function decide(command: string, options: PermissionEngineOptions = {}) {
  return new PermissionEngine({ workingDirectories: [project.path], ...options }).checkPermission(bash, { command });
}

describe("deny rules match the normalised program, in every mode", () => {
  const evasions: [string, string][] = [
    ["rm:*", "/usr/bin/../bin/rm -rf build"],
    ["rm:*", "//bin/rm -rf build"],
    ["rm:*", "/opt/tools/bin/rm -rf build"],
    ["rm:*", "busybox rm -rf build"],
    ["rm:*", "env -i rm -rf build"],
    ["rm:*", "timeout 5 rm -rf build"],
    ["rm:*", "find . -name x -exec rm {} ;"],
    ["rm:*", "fd x -x rm"],
    ["git push:*", "git -c alias.p=push p origin main"],
    ["git push:*", "echo push origin main | xargs git"],
    ["git push:*", "git $SUBCOMMAND origin"],
    ["git push:*", "git {push,origin}"],
    ["git push:*", "git --no-pager push"],
    ["git push:*", "git shipit"],
    ["npm install:*", "npm i left-pad"],
    ["npm install:*", "npm add left-pad"],
    ["npm install:*", "npm isntall left-pad"],
    ["npm uninstall:*", "npm rm left-pad"],
    ["docker rm:*", "docker container rm web"],
    ["terraform destroy:*", "terraform apply -destroy"],
    ["cargo build:*", "cargo b --release"],
    ["rm:*", "bash -c 'rm -rf build'"],
    ["rm:*", 'sh -ec "cd src && rm -rf build"'],
    ["rm:*", "eval rm -rf build"],
    ["rm:*", 'bash -c "$SCRIPT"'],
    ["git push:*", "bash -c 'bash -c \"git push\"'"],
  ];
  for (const mode of [PermissionMode.DEFAULT, PermissionMode.BYPASS, PermissionMode.ACCEPT_EDITS]) {
    it.each(evasions)(`Bash(%s) denies %j in ${mode}`, async (rule, command) => {
      const decision = await decide(command, { mode, deny: [`Bash(${rule})`] });
      expect(decision.behavior, decision.message).toBe("deny");
    });
  }

  it.each([
    ["git push:*", "git log --grep=push"],
    ["rm:*", "echo rm -rf build"],
    ["npm install:*", "npm ls"],
    ["terraform destroy:*", "terraform --version"],
    ["rm:*", "bash -c 'ls -la'"],
  ])("Bash(%s) does not deny %j", async (rule, command) => {
    expect((await decide(command, { deny: [`Bash(${rule})`] })).behavior).not.toBe("deny");
  });
});

describe("allow rules cover only the command they name", () => {
  it.each([
    ["git status:*", "cat ~/.ssh/id_rsa"],
    ["git status:*", "git status && cat .env"],
    ["cat:*", "cat .env"],
    ["find:*", "find . -exec rm -rf {} ;"],
    ["fd:*", "fd . -X rm"],
    ["xargs:*", "ls | xargs rm -rf"],
    ["npm run:*", "npm run build --script-shell=./evil.sh"],
    ["rg:*", "rg --pre ./evil.sh x"],
    ["sudo:*", "sudo rm -rf /var/lib/x"],
    ["awk:*", "awk 'BEGIN { system(\"touch p\") }'"],
    ["sed:*", "sed 's/a/b/e' a.txt"],
    ["echo:*", "echo $(touch pwned)"],
  ])("Bash(%s) does not allow %j", async (rule, command) => {
    const decision = await decide(command, { allow: [`Bash(${rule})`] });
    expect(decision.behavior, decision.message).not.toBe("allow");
  });

  it.each([
    ["sudo npm test", "sudo npm test"],
    ["npm run:*", "npm run build"],
    ["xargs rm:*", "ls | xargs rm"],
    ["find . -exec rm:*", "find . -exec rm {} ;"],
  ])("Bash(%s) allows %j, which it spells out", async (rule, command) => {
    expect((await decide(command, { allow: [`Bash(${rule})`] })).behavior).toBe("allow");
  });

  it("asks bypass-immune when a command reads a secret, whatever the allow rules", async () => {
    const decision = await decide("git status; cat .env", { allow: ["Bash(git status:*)", "Bash(cat:*)"] });
    expect(decision).toMatchObject({ behavior: "ask", bypassImmune: true });
    expect(decision.reason).toContain("fact.secret-read");
  });
});

describe("suggestions never widen into code execution", () => {
  it.each([
    ["bash -c 'echo hi'", "bash -c 'echo hi'"],
    // Words are compared by value: the quotes of a plain word are not part of the rule.
    ["python3 -c 'print(1)'", "python3 -c print(1)"],
    ["node -e 'console.log(1)'", "node -e console.log(1)"],
    ["git -c user.name=x commit -m y", "git -c user.name=x commit -m y"],
    ["npm run build --script-shell=./x.sh", "npm run build --script-shell=./x.sh"],
    ["./scripts/deploy.sh prod", "./scripts/deploy.sh prod"],
  ])("suggests exactly %j", async (command, expected) => {
    const suggestions = (await decide(command)).suggestions.map((rule) => rule.ruleContent);
    expect(suggestions).toEqual([expected]);
  });

  it("still suggests a prefix for an ordinary subcommand", async () => {
    expect((await decide("git commit -m 'fix'")).suggestions.map((rule) => rule.ruleContent)).toEqual(["git commit:*"]);
  });

  it("an accepted exact suggestion allows that command and no other script", async () => {
    const [suggestion] = (await decide("bash -c 'echo hi'")).suggestions;
    const engine = new PermissionEngine({ workingDirectories: [project.path] });
    engine.addRule(suggestion!);
    expect((await engine.checkPermission(bash, { command: "bash -c 'echo hi'" })).behavior).toBe("allow");
    expect((await engine.checkPermission(bash, { command: "bash -c 'rm -rf ~'" })).behavior).not.toBe("allow");
  });
});

describe("writes to configuration that runs code ask in every mode", () => {
  it.each([
    "echo '{}' > .agent-tools/settings.json",
    "cp a.json .agent-tools/settings.local.json",
    "echo x > .yarnrc.yml",
    "echo x >> .npmrc",
    "mkdir -p .git/hooks",
    "tee .envrc < a",
  ])("asks for %j in BYPASS and ACCEPT_EDITS", async (command) => {
    for (const mode of [PermissionMode.BYPASS, PermissionMode.ACCEPT_EDITS]) {
      const decision = await decide(command, { mode, allow: ["Bash"] });
      expect(decision.behavior, `${mode}: ${decision.message}`).toBe("ask");
    }
  });
});

describe("ACCEPT_EDITS file commands are parsed like everything else", () => {
  const acceptEdits = (command: string) => decide(command, { mode: PermissionMode.ACCEPT_EDITS });
  it.each([
    "cp --target=.. a.txt",
    "cp -vt.. a.txt",
    "mv -t /tmp a.txt",
    "cp --target-directory=../x a.txt",
    "rm -rf ?*",
    "rm -rf *",
    "toString > out.txt",
    "constructor > out.txt",
    "__proto__ x",
  ])("does not auto-allow %j", async (command) => {
    expect((await acceptEdits(command)).behavior).not.toBe("allow");
  });

  it.each(["cp a.txt b.txt", "mv -v a.txt src/", "mkdir -p src/lib", "touch src/new.ts", "rm -f src/old.ts", "sed -i s/a/b/ src/a.ts"])(
    "auto-allows %j",
    async (command) => {
      expect((await acceptEdits(command)).behavior).toBe("allow");
    },
  );
});
