import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Bash, PermissionEngine, type PermissionEngineOptions } from "@agent-tools/sdk";
import { RIDER_OPTIONS } from "../../../sdk/src/builtin/shell/policy/rule-riders.js";
import { temporaryDirectory } from "./support.js";

const project = temporaryDirectory("builtin-bash-riders-");
mkdirSync(join(project.path, "src"));
afterAll(() => project.remove());

const bash = new Bash({ cwd: project.path, sandbox: "off" });

function decide(command: string, options: PermissionEngineOptions = {}) {
  return new PermissionEngine({ workingDirectories: [project.path], ...options }).checkPermission(bash, { command });
}

describe("an allow rule covers the command it matches and nothing that rides with it", () => {
  it.each(RIDER_OPTIONS.map((entry) => [entry.example.rule, entry.example.command, entry.effect] as const))(
    "Bash(%s:*) does not cover %j (%s)",
    async (rule, command) => {
      const rules = { allow: [`Bash(${rule}:*)`] };
      expect(await decide(command, rules)).toMatchObject({ behavior: "ask", bypassImmune: true });
      // The rule still covers its own words.
      expect((await decide(rule, rules)).behavior).toBe("allow");
    },
  );

  it("names the option and what it does", async () => {
    const decision = await decide("npm test -- --node-options=--require=./x.js", { allow: ["Bash(npm test:*)"] });
    expect(decision.reason).toContain("rule.rider");
    expect(decision.reason).toContain("--node-options=--require=./x.js");
    expect(decision.reason).toContain("loads code");
  });

  it.each([
    ["npm test:*", "npm test -- --grep parser"],
    ["npm test:*", "npm test -- --reporter=dot"],
    ["kubectl apply -f k8s/:*", "kubectl apply -f k8s/ --dry-run=server"],
    ["curl https://api.example:*", "curl https://api.example -sS -H 'Accept: application/json'"],
    ["make test:*", "make test V=1"],
    ["cargo test:*", "cargo test --release -- --nocapture"],
  ])("Bash(%s) still covers ordinary arguments: %j", async (rule, command) => {
    expect(await decide(command, { allow: [`Bash(${rule})`] })).toMatchObject({ behavior: "allow", reason: `Rule: ${rule}` });
  });

  it.each([
    ["npm test -- -r ./setup.js:*", "npm test -- -r ./setup.js --watch"],
    ["kubectl apply --context=staging:*", "kubectl apply --context=staging -f k8s/"],
  ])("a rule that spells the option covers it: Bash(%s) allows %j", async (rule, command) => {
    expect((await decide(command, { allow: [`Bash(${rule})`] })).behavior).toBe("allow");
  });

  it("a second URL after a rule naming one changes where the command talks", async () => {
    const decision = await decide("curl https://api.example https://other.example/upload", { allow: ["Bash(curl https://api.example:*)"] });
    expect(decision).toMatchObject({ behavior: "ask", bypassImmune: true });
    expect(decision.reason).toContain("https://other.example/upload");
  });

  it("options in the command a wrapper runs are judged the same way", async () => {
    const rules = { allow: ["Bash(npm test:*)"] };
    expect((await decide("timeout 60 npm test -- --watch", rules)).behavior).toBe("allow");
    expect(await decide("timeout 60 npm test -- --require ./evil.js", rules)).toMatchObject({ behavior: "ask", bypassImmune: true });
  });
});

describe("a read-only line with a write redirect or a credential variable is not covered by unrelated rules", () => {
  const unrelated = { allow: ["Bash(git commit:*)", "Bash(npm test:*)"] };

  it.each(["cat README.md > notes.txt", "ls src >> listing.txt", "echo $GITHUB_TOKEN", 'cat README.md && echo "$STRIPE_SECRET_KEY"'])(
    "%j is judged as without rules (never 'Rule: ' naming no rule)",
    async (command) => {
      const withRules = await decide(command, unrelated);
      const without = await decide(command);
      expect(withRules.behavior).toBe("ask");
      expect(withRules.behavior).toBe(without.behavior);
      expect(withRules.reason ?? "").not.toMatch(/^Rule: *$/);
    },
  );

  it("a rule that covers a command does not cover the redirect beside it", async () => {
    const decision = await decide("npm test > test-output.log", unrelated);
    expect(decision).toMatchObject({ behavior: "ask", bypassImmune: true });
    expect(decision.reason).toContain("> test-output.log");
  });

  it("a credential variable rides along unless the rule spells it", async () => {
    expect(await decide("npm test -- --token=$NPM_TOKEN", unrelated)).toMatchObject({ behavior: "ask", bypassImmune: true });
    expect((await decide("npm test -- --token=$NPM_TOKEN", { allow: ["Bash(npm test -- --token=$NPM_TOKEN)"] })).behavior).toBe("allow");
  });
});
