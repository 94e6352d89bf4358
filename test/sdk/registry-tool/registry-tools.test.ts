import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentTools,
  PermissionEngine,
  PermissionMode,
  RegistryTool,
  Toolkit,
  registryTool,
  registryTools,
  type ToolExecutionEvent,
} from "@agent-tools/sdk";
import { toolNameFromId } from "@agent-tools/sdk/tool-spec";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { collect, find, summary } from "../permission/support/events.js";

let registry: TestRegistry;
let cacheDir: string;
let agentTools: AgentTools;

beforeAll(async () => {
  registry = await startTestRegistry();
  cacheDir = await mkdtemp(join(tmpdir(), "agent-tools-permission-registry-"));
  const textStats = await fixtureBundle("text-stats");
  // binary-increment claims to be read-only; the claim must not be believed unless the caller opts in.
  const increment = await fixtureBundle("binary-increment", { spec: { tool_metadata: { version: "1.0.0", read_only: true } } });
  for (const { bundle } of [textStats, increment]) {
    const result = await uploadBundle(registry.url, registry.token, bundle);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
  }
  agentTools = new AgentTools({ toolsDbUrl: registry.url, cacheDir });
  await agentTools.add("text-stats", { top_n: 2 });
  await agentTools.add("binary-increment");
});

afterAll(async () => {
  await agentTools?.close();
  await registry?.close();
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

const TEXT = { text: "the cat and the hat and the bat" };
const EXPECTED = { word_count: 8, unique_words: 5, top_words: ["the", "and"] };

async function runOnce(engine: PermissionEngine, input: Record<string, unknown> = TEXT): Promise<ToolExecutionEvent[]> {
  const toolkit = new Toolkit({ tools: registryTools(agentTools), engine });
  return collect(toolkit.createExecutor().run([{ id: "r1", name: "text-stats", input }]));
}

describe("registry tools as ToolBases", () => {
  it("takes name, search description with tags, and the execute input schema from the entry", () => {
    const tool = registryTool(agentTools, "text-stats");
    expect(tool.name).toBe("text-stats");
    expect(tool.description).toBe("Counts words in a text and returns the most frequent ones\nTags: text, nlp, statistics");
    expect(tool.inputSchema).toEqual({
      type: "object",
      properties: { text: { type: "string", description: "Text to analyse" } },
      required: ["text"],
    });
    expect(tool.isReadOnly).toBe(false);
    expect(registryTools(agentTools).map((t) => t.name)).toEqual(["text-stats", "binary-increment"]);
    expect(toolNameFromId("acme.tools/v2 beta")).toBe("acme_tools_v2_beta");
  });

  it("refuses to wrap a tool that was not added", () => {
    expect(() => registryTool(agentTools, "never-added")).toThrow(/has not been added: call agentTools.add\("never-added"\)/);
  });

  const cases: [PermissionMode, string[]][] = [
    [PermissionMode.DEFAULT, ["require_user_confirm:r1"]],
    [PermissionMode.ACCEPT_EDITS, ["require_user_confirm:r1"]],
    [PermissionMode.EXPLORE, ["tool_denied:r1"]],
    [PermissionMode.BYPASS, ["tool_result_start:r1", "tool_result_end:r1"]],
    [PermissionMode.DONT_ASK, ["tool_denied:r1"]],
  ];
  for (const [mode, expected] of cases) {
    it(`without rules in ${mode} mode: ${expected.join(" ")}`, async () => {
      const events = await runOnce(new PermissionEngine({ mode }));
      expect(summary(events)).toEqual(expected);
      if (mode === PermissionMode.BYPASS) {
        expect(JSON.parse(find(events, "tool_result_end", "r1").response.text)).toEqual(EXPECTED);
      }
    });
  }

  it("an allow rule lets it run in DEFAULT and DONT_ASK; a deny rule stops it even in BYPASS", async () => {
    for (const mode of [PermissionMode.DEFAULT, PermissionMode.DONT_ASK]) {
      const events = await runOnce(new PermissionEngine({ mode, allow: ["text-stats"] }));
      expect(JSON.parse(find(events, "tool_result_end", "r1").response.text)).toEqual(EXPECTED);
    }
    const denied = await runOnce(new PermissionEngine({ mode: PermissionMode.BYPASS, deny: ["text-stats"] }));
    expect(find(denied, "tool_denied", "r1").response.text).toBe("Permission to use text-stats has been denied");
  });

  it("runs through the confirmation round trip and remembers the accepted rule", async () => {
    const engine = new PermissionEngine();
    const executor = new Toolkit({ tools: [registryTool(agentTools, "text-stats")], engine }).createExecutor();
    const asked = await collect(executor.run([{ id: "c", name: "text-stats", input: TEXT }]));
    const request = find(asked, "require_user_confirm").toolCalls[0]!;
    // The tool's own plain ASK falls through to the mode default, whose message replaces it (docs/design/permission-model.md).
    expect(request).toMatchObject({ message: "Permission required for text-stats", reason: "Mode: default" });
    const done = await collect(executor.resume({ confirmResults: [{ toolCallId: "c", confirmed: true, rules: ["text-stats"] }] }));
    expect(JSON.parse(find(done, "tool_result_end", "c").response.text)).toEqual(EXPECTED);
    expect(engine.listRules("allow").map((rule) => rule.toolName)).toEqual(["text-stats"]);
  });

  it("validates the input against the registry schema before asking anyone", async () => {
    const events = await runOnce(new PermissionEngine({ mode: PermissionMode.BYPASS }), { txt: "typo" });
    expect(find(events, "tool_error", "r1").response.text).toMatch(/must have required property 'text'/);
  });

  it("does not trust a registry's read-only claim unless asked to", async () => {
    const explore = new PermissionEngine({ mode: PermissionMode.EXPLORE });
    const untrusted = new RegistryTool(agentTools, "binary-increment");
    expect(untrusted.isReadOnly).toBe(false);
    expect((await explore.checkPermission(untrusted, { value: 1 })).behavior).toBe("deny");
    const trusted = new RegistryTool(agentTools, "binary-increment", { trustRegistryReadOnly: true });
    expect((await explore.checkPermission(trusted, { value: 1 })).behavior).toBe("allow");
    expect(new RegistryTool(agentTools, "text-stats", { trustRegistryReadOnly: true }).isReadOnly).toBe(false);
    const toolkit = new Toolkit({ tools: [trusted], engine: explore });
    const events = await collect(toolkit.createExecutor().run([{ id: "b", name: "binary-increment", input: { value: 41 } }]));
    expect(JSON.parse(find(events, "tool_result_end", "b").response.text)).toEqual({ result: 42, status: "success" });
  });

  it("input the registry schema forbids never reaches the binary", async () => {
    const toolkit = new Toolkit({
      tools: [registryTool(agentTools, "binary-increment")],
      engine: new PermissionEngine({ mode: PermissionMode.BYPASS }),
    });
    const events = await collect(toolkit.createExecutor().run([{ id: "x", name: "binary-increment", input: { value: "NaN-text" } }]));
    expect(find(events, "tool_error", "x").response.text).toMatch(/\/value must be number/);
  });
});
