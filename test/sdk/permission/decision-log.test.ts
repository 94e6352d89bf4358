/**
 * The decision log (docs/permissions.md#decision-log): every decision of the engine, in every
 * mode, and every answer to an ask (a user's confirmation, a capability or trust question), one
 * JSONL line each: time, tool and origin, a digest and a redacted summary of the input, mode,
 * outcome, the rule and the settings file it came from, who answered. It fails closed.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Bash, PermissionEngine, PermissionMode, Read, Toolkit, loadPermissionSettings } from "@agent-tools/sdk";
import { parseDecisionLog, type DecisionRecord } from "@agent-tools/sdk/permission";
import { decideCapabilities } from "../../../sdk/src/sandbox/capabilities/capability-grants.js";
import { inputDigest } from "../../../sdk/src/permission/input-summary.js";
import { addTool } from "./support/add-tool.js";
import { collect, find } from "./support/events.js";
import { ProbeTool } from "./support/probe-tool.js";

let root: string;
let logFile: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "agent-tools-decision-log-"));
  logFile = join(root, "logs", "decisions.jsonl");
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function records(): Promise<DecisionRecord[]> {
  const { records: read, unreadable } = parseDecisionLog(await readFile(logFile, "utf8"));
  expect(unreadable).toBe(0);
  return read;
}

describe("the decision log", () => {
  it("records each decision in every mode, naming the rule, its layer and its settings file", async () => {
    const home = join(root, "home");
    const project = join(root, "project");
    await mkdir(join(home, ".agent-tools"), { recursive: true });
    await mkdir(join(project, ".agent-tools"), { recursive: true });
    const projectFile = join(project, ".agent-tools", "settings.json");
    await writeFile(projectFile, JSON.stringify({ permissions: { deny: ["Probe(secret)"] } }));
    await writeFile(
      join(home, ".agent-tools", "settings.json"),
      JSON.stringify({ permissions: { allow: ["Probe(fine)"], decisionLog: logFile } }),
    );
    const settings = loadPermissionSettings({ homeDir: home, projectDir: project });
    expect(settings.decisionLog).toBe(logFile);
    const engine = new PermissionEngine(settings);
    const probe = new ProbeTool();
    await engine.checkPermission(probe, { target: "secret" });
    await engine.checkPermission(probe, { target: "fine" });
    const outcomes: Record<string, string> = {};
    for (const mode of Object.values(PermissionMode)) {
      engine.setMode(mode);
      outcomes[mode] = (await engine.checkPermission(probe, { target: "other" })).behavior;
    }
    const lines = await records();
    expect(lines.map((line) => [line.event, line.mode, line.outcome, line.rule ?? line.reason])).toEqual([
      ["decision", "default", "deny", "Probe(secret)"],
      ["decision", "default", "allow", "Probe(fine)"],
      ...Object.entries(outcomes).map(([mode, outcome]) => ["decision", mode, outcome, expect.any(String)]),
    ]);
    expect(lines[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      event: "decision",
      tool: "Probe",
      input_digest: inputDigest({ target: "secret" }),
      input: { target: "secret" },
      mode: "default",
      outcome: "deny",
      reason: "Rule: Probe(secret)",
      rule: "Probe(secret)",
      rule_source: "projectSettings",
      settings_file: projectFile,
    });
    expect(lines[1]).toMatchObject({
      rule: "Probe(fine)",
      rule_source: "userSettings",
      settings_file: join(home, ".agent-tools", "settings.json"),
    });
    expect(lines[2]).toMatchObject({ mode: "default", outcome: "ask", reason: "Mode: default" });
    expect(lines.find((line) => line.mode === "bypass")).toMatchObject({ outcome: "allow", reason: "Bypass mode allows all operations" });
    expect(lines.find((line) => line.mode === "dont_ask")).toMatchObject({ outcome: "deny" });
    expect(lines.find((line) => line.mode === "explore")).toMatchObject({
      outcome: "deny",
      reason: "Explore mode does not allow modifications",
    });
    expect(((await stat(logFile)).mode & 0o777).toString(8)).toBe("600");
  });

  it("names a tool's origin, and keeps a digest and a redacted, bounded summary of the input", async () => {
    const engine = new PermissionEngine({ decisionLog: logFile });
    const input = {
      command:
        'curl -H "Authorization: Bearer abcdefghijklmnopqrstuvwxyz" ' +
        "https://bob:hunter2@example.com OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuv",
      description: "x".repeat(500),
      api_key: "kept secret",
    };
    await engine.checkPermission(new Bash({ cwd: root }), input);
    await engine.checkPermission(new Read({ cwd: root }), { file_path: join(root, "notes.txt") });
    const [bash, read] = await records();
    expect(bash).toMatchObject({ tool: "Bash", origin: "builtin:Bash", input_digest: inputDigest(input) });
    const summary = bash!.input as Record<string, string>;
    expect(summary.command).toBe('curl -H "Authorization: [redacted]" https://bob:[redacted]@example.com OPENAI_API_KEY=[redacted]');
    expect(summary.description).toBe(`${"x".repeat(200)}… (500 characters)`);
    expect(summary.api_key).toBe("[redacted]");
    expect(JSON.stringify(bash)).not.toMatch(/hunter2|abcdefghijklmnopqrstuvwxyz|kept secret|sk-proj/);
    expect(read).toMatchObject({ tool: "Read", origin: "builtin:Read", outcome: "allow", reason: "Read-only operations are auto-allowed" });
    expect(inputDigest({ a: 1, b: 2 })).toBe(inputDigest({ b: 2, a: 1 }));
    expect(inputDigest({ a: 1 })).not.toBe(inputDigest({ a: 2 }));
  });

  it("records who answered an ask: the user confirming or refusing in a Toolkit, with the rules remembered", async () => {
    const toolkit = new Toolkit({ tools: [addTool()], engine: new PermissionEngine({ decisionLog: logFile }) });
    const executor = toolkit.createExecutor();
    await collect(executor.run([{ id: "c1", name: "add", input: { a: 1, b: 2 } }]));
    await collect(executor.resume({ confirmResults: [{ toolCallId: "c1", confirmed: true, rules: ["add"] }] }));
    await collect(executor.run([{ id: "c2", name: "add", input: { a: 3, b: 4 } }]));
    const other = new Toolkit({ tools: [addTool()], engine: new PermissionEngine({ decisionLog: logFile }) }).createExecutor();
    await collect(other.run([{ id: "c3", name: "add", input: { a: 5, b: 6 } }]));
    await collect(other.resume({ confirmResults: [{ toolCallId: "c3", confirmed: false }] }));
    expect((await records()).map((line) => [line.event, line.outcome, line.answered_by ?? line.reason, line.remembered])).toEqual([
      ["decision", "ask", "Mode: default", undefined],
      ["answer", "allow", "user", ["add"]],
      ["decision", "allow", "Rule: add", undefined],
      ["decision", "ask", "Mode: default", undefined],
      ["answer", "deny", "user", undefined],
    ]);
  });

  it("records capability answers and their remembered rules", async () => {
    const engine = new PermissionEngine({ decisionLog: logFile });
    await decideCapabilities("weather", { network: ["api.example.com"], env: [], filesystem: [] }, engine, () => ({
      granted: true,
      remember: true,
    }));
    await decideCapabilities("weather", { network: ["api.example.com"], env: [], filesystem: [] }, engine, () => false);
    expect((await records()).map((line) => [line.tool, line.event, line.outcome, line.answered_by, line.remembered, line.rule])).toEqual([
      ["Capability", "decision", "ask", undefined, undefined, undefined],
      ["Capability", "answer", "allow", "onCapabilityRequest", ["Capability(weather:network:api.example.com)"], undefined],
      ["Capability", "decision", "allow", undefined, undefined, "Capability(weather:network:api.example.com)"],
    ]);
  });

  it("fails closed: a decision that cannot be written is an error, and the call does not run", async () => {
    if (process.getuid?.() === 0) {
      // root writes through permissions: a folder in place of the file cannot be appended to by anyone.
      await mkdir(logFile, { recursive: true });
    } else {
      await mkdir(join(root, "logs"), { recursive: true });
      await writeFile(logFile, "");
      await chmod(logFile, 0o400);
    }
    let ran = false;
    const tool = addTool().use(async function* (_tool, input, next) {
      ran = true;
      yield* next(input);
    });
    const toolkit = new Toolkit({ tools: [tool], engine: new PermissionEngine({ decisionLog: logFile, allow: ["add"] }) });
    const events = await collect(toolkit.createExecutor().run([{ id: "c1", name: "add", input: { a: 1, b: 2 } }]));
    expect(find(events, "tool_error", "c1").error.code).toBe("PERMISSION_CHECK_FAILED");
    expect(ran).toBe(false);
  });
});
