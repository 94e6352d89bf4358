// Tool names that are also names of properties every JavaScript object has: a registry tool may be
// called `constructor` or `toString`, and its rules must be its own, never an inherited property.
import { describe, expect, it } from "vitest";
import { PermissionBehavior, PermissionEngine } from "@agent-tools/sdk";
import { ProbeTool } from "./support/probe-tool.js";

const BUILT_IN_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "__defineGetter__"];

describe("tools named like built-in object properties", () => {
  it("get the mode's answer when no rule names them", async () => {
    const engine = new PermissionEngine();
    for (const name of BUILT_IN_NAMES) {
      const decision = await engine.checkPermission(new ProbeTool({ name }), { target: "x" });
      expect(decision.behavior, name).toBe(PermissionBehavior.ASK);
    }
  });

  it("follow the rules written for them, whole-tool and with content", async () => {
    for (const name of BUILT_IN_NAMES) {
      const engine = new PermissionEngine({ deny: [`${name}(x)`], allow: [name] });
      expect((await engine.checkPermission(new ProbeTool({ name }), { target: "x" })).behavior, name).toBe(PermissionBehavior.DENY);
      expect((await engine.checkPermission(new ProbeTool({ name }), { target: "y" })).behavior, name).toBe(PermissionBehavior.ALLOW);
      expect(
        engine.listRules(PermissionBehavior.DENY).map((rule) => rule.toolName),
        name,
      ).toEqual([name]);
      // A rule for one of them says nothing about another tool.
      expect((await engine.checkPermission(new ProbeTool({ name: "Probe" }), { target: "x" })).behavior, name).toBe(PermissionBehavior.ASK);
    }
  });
});
