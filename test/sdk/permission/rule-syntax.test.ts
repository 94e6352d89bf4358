import { describe, expect, it } from "vitest";
import { PermissionEngine, PermissionRuleError } from "@agent-tools/sdk";
import { formatRule, parseRule } from "../../../sdk/src/permission/rule-syntax.js";
import { ProbeTool } from "./support/probe-tool.js";

describe("parseRule / formatRule", () => {
  const valid: [string, { toolName: string; ruleContent?: string }][] = [
    ["Read", { toolName: "Read" }],
    ["  Read  ", { toolName: "Read" }],
    ["Bash(npm run test:*)", { toolName: "Bash", ruleContent: "npm run test:*" }],
    ["Read(./.env)", { toolName: "Read", ruleContent: "./.env" }],
    ["Bash()", { toolName: "Bash" }],
    ["Bash(*)", { toolName: "Bash" }],
    ["Bash(echo \\(hi\\))", { toolName: "Bash", ruleContent: "echo (hi)" }],
    ["Bash(echo (hi))", { toolName: "Bash", ruleContent: "echo (hi)" }],
    ["Bash(echo \\*)", { toolName: "Bash", ruleContent: "echo \\*" }],
    ["Bash(printf a\\\\b)", { toolName: "Bash", ruleContent: "printf a\\b" }],
    ["mcp__github__create_issue", { toolName: "mcp__github__create_issue" }],
    ["text-stats(top_n)", { toolName: "text-stats", ruleContent: "top_n" }],
  ];
  for (const [text, expected] of valid) {
    it(`parses ${JSON.stringify(text)}`, () => {
      expect(parseRule(text, "allow")).toEqual({ ...expected, behavior: "allow", source: "session" });
    });
  }

  const malformed: [string, RegExp][] = [
    ["", /the rule is empty/],
    ["(ls)", /tool name is missing/],
    ["Bash(ls", /must end with an unescaped "\)"/],
    ["Bash(ls) extra", /must end with an unescaped "\)"/],
    ["Bash(ls\\)", /must end with an unescaped "\)"/],
    ["Bash(echo (hi)", /unescaped "\("/],
    ["Bash(echo hi))", /unescaped "\)"/],
    ["Ba sh(ls)", /may only contain letters/],
    ["Read)", /without a matching "\("/],
  ];
  for (const [text, problem] of malformed) {
    it(`rejects ${JSON.stringify(text)} with a clear error naming the rule`, () => {
      let caught: unknown;
      try {
        parseRule(text, "deny", "session", "settings.json");
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PermissionRuleError);
      const message = (caught as Error).message;
      expect(message).toMatch(problem);
      expect(message).toContain(JSON.stringify(text));
      expect(message).toContain("in settings.json");
      expect((caught as PermissionRuleError).code).toBe("INVALID_PERMISSION_RULE");
    });
  }

  it("round-trips content with parentheses and backslashes", () => {
    for (const ruleContent of ["echo (a) \\(b\\)", "a\\b", "x)", "(y", "plain"]) {
      const formatted = formatRule({ toolName: "Bash", ruleContent });
      expect(parseRule(formatted, "ask").ruleContent).toBe(ruleContent);
    }
    expect(formatRule({ toolName: "Read" })).toBe("Read");
  });
});

describe("rules given to the engine", () => {
  it("accepts rule objects beside strings", async () => {
    const engine = new PermissionEngine({
      deny: [{ toolName: "Probe", ruleContent: "secret" }],
      allow: [{ toolName: "Probe", behavior: "allow", source: "code" }],
    });
    expect((await engine.checkPermission(new ProbeTool(), { target: "secret" })).behavior).toBe("deny");
    expect((await engine.checkPermission(new ProbeTool(), { target: "fine" })).behavior).toBe("allow");
    expect(engine.listRules("allow")).toEqual([{ toolName: "Probe", behavior: "allow", source: "code" }]);
  });

  it("refuses a malformed rule string in the constructor, naming it", () => {
    expect(() => new PermissionEngine({ deny: ["Bash(git push:*"] })).toThrow(/"Bash\(git push:\*".*must end/);
  });

  it("refuses an object listed under another behavior", () => {
    expect(() => new PermissionEngine({ allow: [{ toolName: "Probe", behavior: "deny" }] })).toThrow(/listed under "allow"/);
  });

  it("addRule appends, ignores duplicates and drops PASSTHROUGH", async () => {
    const engine = new PermissionEngine();
    engine.addRule("Probe(x)", "allow");
    engine.addRule({ toolName: "Probe", ruleContent: "x", behavior: "allow", source: "suggested" });
    engine.addRule({ toolName: "Probe", behavior: "passthrough", source: "suggested" });
    expect(engine.listRules("allow")).toHaveLength(1);
    expect((await engine.checkPermission(new ProbeTool(), { target: "x" })).behavior).toBe("allow");
    expect(() => engine.addRule("Probe")).toThrow(/needs a behavior/);
  });
});
