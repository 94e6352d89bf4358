import { describe, expect, it } from "vitest";
import { PermissionEngine, PermissionMode, type PermissionResult } from "@agent-tools/sdk";
import { ProbeTool, type OwnVerdict } from "./support/probe-tool.js";

const { DEFAULT: D, ACCEPT_EDITS: A, EXPLORE: E, BYPASS: B, DONT_ASK: N } = PermissionMode;
const MODES = [D, A, E, B, N] as const;
type Mode = (typeof MODES)[number];

/** What a cell of the table expects: the behavior and a fragment of the message or reason. */
type Expect = { behavior: "allow" | "deny" | "ask"; says: string; suggestions: boolean; ownCalled?: boolean };

interface Row {
  step: string;
  readOnly?: boolean;
  verdict?: OwnVerdict;
  rules?: { allow?: string[]; ask?: string[]; deny?: string[] };
  expect: Record<Mode, Expect>;
}

const DENY_RULE: Expect = { behavior: "deny", says: "Rule: Probe(x)", suggestions: false };
const ASK_RULE: Expect = { behavior: "ask", says: "Rule: Probe(x)", suggestions: true };
const ASK_CONVERTED: Expect = { behavior: "deny", says: "DONT_ASK mode converted ASK to DENY", suggestions: true };
const READ_ONLY: Expect = { behavior: "allow", says: "Read-only operations are auto-allowed", suggestions: false };
const EXPLORE_DENY: Expect = { behavior: "deny", says: "Explore mode does not allow modifications", suggestions: false, ownCalled: false };
const BYPASS_DEFAULT: Expect = { behavior: "allow", says: "Bypass mode allows all operations", suggestions: false };
const DONT_ASK_DEFAULT: Expect = { behavior: "deny", says: "dont_ask mode - user not available", suggestions: false };
const ALLOW_RULE: Expect = { behavior: "allow", says: "Rule: Probe(x)", suggestions: false };
const same = (cell: Expect): Record<Mode, Expect> => ({ [D]: cell, [A]: cell, [E]: cell, [B]: cell, [N]: cell }) as Record<Mode, Expect>;

// docs/design/permission-model.md, "The decision, step by step": one row per step outcome, one column per mode.
const TABLE: Row[] = [
  {
    step: "1 deny rule beats everything",
    readOnly: true,
    verdict: "allow",
    rules: { deny: ["Probe(x)"], ask: ["Probe(x)"], allow: ["Probe(x)"] },
    expect: same(DENY_RULE),
  },
  {
    step: "1 whole-tool deny rule",
    rules: { deny: ["Probe"] },
    expect: same({ behavior: "deny", says: "Rule: Probe", suggestions: false }),
  },
  {
    step: "2 ask rule beats read-only and allow",
    readOnly: true,
    rules: { ask: ["Probe(x)"], allow: ["Probe(x)"] },
    expect: { [D]: ASK_RULE, [A]: ASK_RULE, [E]: ASK_RULE, [B]: ASK_RULE, [N]: ASK_CONVERTED },
  },
  { step: "3 read-only fast path", readOnly: true, expect: same(READ_ONLY) },
  { step: "3 read-only beats the tool's own DENY", readOnly: true, verdict: "deny", expect: same(READ_ONLY) },
  {
    step: "4 tool ALLOW",
    verdict: "allow",
    expect: { [D]: own("allow"), [A]: own("allow"), [E]: EXPLORE_DENY, [B]: own("allow"), [N]: own("allow") },
  },
  {
    step: "4 tool DENY beats an allow rule",
    verdict: "deny",
    rules: { allow: ["Probe(x)"] },
    expect: { [D]: own("deny"), [A]: own("deny"), [E]: EXPLORE_DENY, [B]: own("deny"), [N]: own("deny") },
  },
  {
    step: "4 safety ASK beats an allow rule",
    verdict: "safety-ask",
    rules: { allow: ["Probe(x)"] },
    expect: {
      [D]: { behavior: "ask", says: "Safety check: probe", suggestions: true },
      [A]: { behavior: "ask", says: "Safety check: probe", suggestions: true },
      [E]: EXPLORE_DENY,
      [B]: ALLOW_RULE,
      [N]: { behavior: "deny", says: "Original reason: Safety check: probe", suggestions: true },
    },
  },
  {
    step: "4 safety ASK without rules",
    verdict: "safety-ask",
    expect: {
      [D]: { behavior: "ask", says: "Safety check: probe", suggestions: true },
      [A]: { behavior: "ask", says: "Safety check: probe", suggestions: true },
      [E]: EXPLORE_DENY,
      [B]: BYPASS_DEFAULT,
      [N]: { behavior: "deny", says: "ASK converted to DENY", suggestions: true },
    },
  },
  {
    step: "4 plain ASK is dropped, 5 allow rule applies",
    verdict: "ask",
    rules: { allow: ["Probe(x)"] },
    expect: { [D]: ALLOW_RULE, [A]: ALLOW_RULE, [E]: EXPLORE_DENY, [B]: ALLOW_RULE, [N]: ALLOW_RULE },
  },
  {
    step: "5 allow rule after PASSTHROUGH",
    verdict: "passthrough",
    rules: { allow: ["Probe(x)"] },
    expect: { [D]: ALLOW_RULE, [A]: ALLOW_RULE, [E]: EXPLORE_DENY, [B]: ALLOW_RULE, [N]: ALLOW_RULE },
  },
  {
    step: "5 a non-matching allow rule does nothing",
    rules: { allow: ["Probe(y)"] },
    expect: {
      [D]: { behavior: "ask", says: "Mode: default", suggestions: true },
      [A]: { behavior: "ask", says: "Mode: accept_edits", suggestions: true },
      [E]: EXPLORE_DENY,
      [B]: BYPASS_DEFAULT,
      [N]: DONT_ASK_DEFAULT,
    },
  },
  {
    step: "6 mode default after a plain ASK",
    verdict: "ask",
    expect: {
      [D]: { behavior: "ask", says: "Mode: default", suggestions: true },
      [A]: { behavior: "ask", says: "Mode: accept_edits", suggestions: true },
      [E]: EXPLORE_DENY,
      [B]: BYPASS_DEFAULT,
      [N]: DONT_ASK_DEFAULT,
    },
  },
];

function own(verdict: "allow" | "deny"): Expect {
  return { behavior: verdict, says: `own reason ${verdict}`, suggestions: false, ownCalled: true };
}

function text(decision: PermissionResult): string {
  return `${decision.message} | ${decision.reason ?? ""}`;
}

describe("PermissionEngine: every cell of the decision table (docs/design/permission-model.md)", () => {
  for (const row of TABLE) {
    for (const mode of MODES) {
      it(`${row.step} — ${mode}`, async () => {
        const tool = new ProbeTool({ readOnly: row.readOnly ?? false, verdict: row.verdict ?? "passthrough" });
        const engine = new PermissionEngine({ mode, ...row.rules });
        const expected = row.expect[mode];
        const decision = await engine.checkPermission(tool, { target: "x" });
        expect(decision.behavior).toBe(expected.behavior);
        expect(text(decision)).toContain(expected.says);
        if (expected.suggestions) {
          expect(decision.suggestions).toEqual([{ toolName: "Probe", behavior: "allow", source: "suggested" }]);
        } else {
          expect(decision.suggestions).toEqual([]);
        }
        if (expected.ownCalled !== undefined) expect(tool.ownChecks > 0).toBe(expected.ownCalled);
      });
    }
  }
});

describe("PermissionEngine: messages and fields", () => {
  it("uses the documented message for each outcome", async () => {
    const tool = new ProbeTool();
    const check = (mode: Mode, rules = {}) => new PermissionEngine({ mode, ...rules }).checkPermission(tool, { target: "x" });
    expect((await check(D, { deny: ["Probe"] })).message).toBe("Permission to use Probe has been denied");
    expect((await check(D, { ask: ["Probe"] })).message).toBe("Permission required for Probe");
    expect((await check(D, { allow: ["Probe"] })).message).toBe("Permission granted for Probe");
    expect((await check(D, { allow: ["Probe"] })).updatedInput).toEqual({ target: "x" });
    expect((await check(E)).message).toBe("Permission denied for Probe (explore mode is read-only)");
    expect((await check(B)).message).toBe("Permission granted for Probe (bypass mode)");
    expect((await check(N)).message).toBe("Permission denied for Probe (dont_ask mode - user not available)");
    expect((await check(N, { ask: ["Probe"] })).message).toBe(
      "Permission denied for Probe (dont_ask mode - ASK converted to DENY, user not available)",
    );
    const readOnly = await new PermissionEngine().checkPermission(new ProbeTool({ readOnly: true }), {});
    expect(readOnly.message).toBe("Permission granted for Probe (read-only invocation)");
  });

  it("keeps bypassImmune on a safety ASK and the tool's message", async () => {
    const decision = await new PermissionEngine().checkPermission(new ProbeTool({ verdict: "safety-ask" }), { target: "x" });
    expect(decision).toMatchObject({ behavior: "ask", message: "own safety-ask", bypassImmune: true });
  });

  it("never returns PASSTHROUGH", async () => {
    for (const mode of MODES) {
      const decision = await new PermissionEngine({ mode }).checkPermission(new ProbeTool({ verdict: "passthrough" }), {});
      expect(decision.behavior).not.toBe("passthrough");
    }
  });

  it("checks rules in insertion order and by exact tool name", async () => {
    const engine = new PermissionEngine({ deny: ["Probe(a)", "Probe(b)"], allow: ["Other"] });
    expect((await engine.checkPermission(new ProbeTool(), { target: "b" })).reason).toBe("Rule: Probe(b)");
    expect((await engine.checkPermission(new ProbeTool(), { target: "c" })).behavior).toBe("ask");
    expect((await engine.checkPermission(new ProbeTool({ name: "Other" }), {})).behavior).toBe("allow");
  });

  it("lets whole-server rules govern MCP tools", async () => {
    const tool = new ProbeTool({ name: "mcp__github__create_issue", mcpName: "github" });
    expect((await new PermissionEngine({ deny: ["mcp__github"] }).checkPermission(tool, {})).behavior).toBe("deny");
    expect((await new PermissionEngine({ allow: ["mcp__github__*"] }).checkPermission(tool, {})).behavior).toBe("allow");
    expect((await new PermissionEngine({ allow: ["mcp__gitlab"] }).checkPermission(tool, {})).behavior).toBe("ask");
  });

  it("setMode switches the default; an unknown mode is refused", async () => {
    const engine = new PermissionEngine();
    engine.setMode(PermissionMode.BYPASS);
    expect((await engine.checkPermission(new ProbeTool(), {})).behavior).toBe("allow");
    expect(() => engine.setMode("yolo" as PermissionMode)).toThrow(/Unknown permission mode "yolo"/);
    expect(() => new PermissionEngine({ mode: "plan" as PermissionMode })).toThrow(/use one of default, accept_edits/);
  });
});
