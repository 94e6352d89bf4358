/**
 * One namespace for tools (docs/permissions.md#one-namespace-for-tools): the SDK's own names are
 * reserved, case-insensitively, and only the SDK's own tool answers to them; two tools of one
 * Toolkit never share a name; rules can name a tool's source (`builtin:`, `registry:`).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentTools,
  FunctionTool,
  Grep,
  PermissionEngine,
  PermissionMode,
  Read,
  Toolkit,
  ToolkitError,
  createBuiltinTools,
  BUILTIN_TOOL_NAMES,
  registryTool,
} from "@agent-tools/sdk";
import { RESERVED_TOOL_NAMES, RESERVED_TOOL_NAME_PREFIXES, reservedToolName } from "@agent-tools/sdk/tool-spec";
import { CAPABILITY_TOOL_NAME } from "../../../sdk/src/sandbox/capabilities/capability-grants.js";
import { SKILL_VIEWER_NAME } from "../../../sdk/src/skills/skill-viewer.js";
import { RESET_TOOLS_NAME } from "../../../sdk/src/toolkit/reset-tools.js";
import { PUBLISHER_KEY_TOOL_NAME, TOOL_DEFINITION_TOOL_NAME } from "../../../sdk/src/trust/trust-asks.js";
import { FIXTURE_TOOLS_DIR } from "../../support/bundles.js";
import { TempDirs } from "../support/temp-dirs.js";

const SDK_SOURCE = new URL("../../../sdk/src/", import.meta.url).pathname;

/** Every `readonly name = "…"` of a ToolBase subclass the SDK ships, read from the source. */
function shippedToolNames(): string[] {
  const names: string[] = [];
  for (const file of readdirSync(SDK_SOURCE, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts")) continue;
    const text = readFileSync(join(SDK_SOURCE, file), "utf8");
    if (!/extends \w*ToolBase\b/.test(text)) continue;
    for (const match of text.matchAll(/readonly name = "([^"]+)"/g)) names.push(match[1]!);
  }
  return names;
}

const echo = (name: string) =>
  new FunctionTool(() => "ran", { name, description: "A tool of the application's own.", inputSchema: { type: "object", properties: {} } });

function refusal(build: () => unknown): ToolkitError {
  try {
    build();
  } catch (error) {
    if (error instanceof ToolkitError) return error;
    throw error;
  }
  throw new Error("expected a ToolkitError");
}

/** One AgentTools holding the registry fixture text-stats, for the Toolkit and rule tests. */
const temp = new TempDirs();
let agentTools: AgentTools;
beforeAll(async () => {
  agentTools = new AgentTools({ cacheDir: await temp.make(), sandbox: "off" });
  await agentTools.add({ path: join(FIXTURE_TOOLS_DIR, "text-stats") });
});
afterAll(async () => {
  await agentTools?.close();
  await temp.removeAll();
});

describe("the reserved names", () => {
  it("are exactly the tools the SDK ships, its meta tools and the names its own questions are decided under", () => {
    const shipped = [
      ...shippedToolNames(),
      SKILL_VIEWER_NAME,
      RESET_TOOLS_NAME,
      CAPABILITY_TOOL_NAME,
      PUBLISHER_KEY_TOOL_NAME,
      TOOL_DEFINITION_TOOL_NAME,
    ];
    expect(shipped).toEqual(expect.arrayContaining(BUILTIN_TOOL_NAMES));
    expect(RESERVED_TOOL_NAMES.map((entry) => entry.name).sort()).toEqual([...new Set(shipped)].sort());
    expect(RESERVED_TOOL_NAMES.every((entry) => entry.reason.length > 10)).toBe(true);
    expect(RESERVED_TOOL_NAME_PREFIXES.map((entry) => entry.prefix)).toEqual(["mcp__"]);
  });

  it("are matched case-insensitively, the prefix too, and nothing else is", () => {
    for (const name of ["Read", "read", "READ", "rEsEt_ToOlS", "skill", "capability", "mcp__files__write_file", "MCP__x"])
      expect(reservedToolName(name), name).toBeDefined();
    for (const name of ["Reader", "ReadFile", "mcp_files", "mcp-files", "x_mcp__y", "Bash2", "resettools"])
      expect(reservedToolName(name), name).toBeUndefined();
  });

  it("are answered by the SDK's own tools, which say they are built in", () => {
    for (const tool of createBuiltinTools(BUILTIN_TOOL_NAMES, process.cwd())) expect(tool.origin, tool.name).toEqual({ kind: "builtin" });
  });
});

describe("a Toolkit", () => {
  it("refuses a tool of the application's own under a reserved name, however it is cased", () => {
    for (const name of [
      "Read",
      "read",
      "READ",
      "Skill",
      "reset_tools",
      "Capability",
      "ToolDefinition",
      "mcp__files__write_file",
      "Mcp__x",
    ]) {
      const error = refusal(() => new Toolkit({ tools: [echo(name)] }));
      expect(error.code, name).toBe("TOOL_NAME_RESERVED");
      expect(error.message, name).toContain(`under the name "${name}"`);
      expect(error.message, name).toMatch(/is reserved, case-insensitively, for .+ Give the tool another name\./);
    }
  });

  it("refuses a registry tool renamed to a built-in's name, even beside the built-in", () => {
    const impostor = registryTool(agentTools, "text-stats", { name: "Read" });
    const error = refusal(() => new Toolkit({ tools: [new Read(), impostor] }));
    expect(error.code).toBe("TOOL_NAME_RESERVED");
    expect(error.message).toContain('the registry tool "text-stats" cannot join a Toolkit under the name "Read"');
    expect(error.message).toContain('"Read" is reserved, case-insensitively, for the built-in file reader');
  });

  it("refuses two tools with one name, case-insensitively, wherever they are", () => {
    const basic = refusal(() => new Toolkit({ tools: [echo("lookup"), echo("Lookup")] }));
    expect(basic.code).toBe("TOOL_NAME_COLLISION");
    expect(basic.message).toBe(
      'Two tools of this Toolkit are named "lookup" and "Lookup": a tool of your own (FunctionTool) ' +
        "and a tool of your own (FunctionTool). Tool names must differ (case-insensitively), or one would " +
        "silently replace the other; rename one (registryTool(tools, id, { name }) for a registry tool).",
    );
    const twoBuiltins = refusal(() => new Toolkit({ tools: [new Read(), new Read()] }));
    expect(twoBuiltins.message).toContain('the built-in tool "Read" and the built-in tool "Read"');
    const acrossGroups = refusal(
      () =>
        new Toolkit({
          tools: [registryTool(agentTools, "text-stats")],
          groups: [{ name: "extra", description: "More tools.", tools: [echo("text-stats")] }],
        }),
    );
    expect(acrossGroups.message).toContain('the registry tool "text-stats" and a tool of your own (FunctionTool)');
  });

  it("refuses a colliding tool added later and stays as it was", () => {
    const toolkit = new Toolkit({ tools: [echo("lookup")], groups: [{ name: "extra", description: "More tools.", tools: [] }] });
    expect(refusal(() => toolkit.registerTool(echo("LOOKUP"))).code).toBe("TOOL_NAME_COLLISION");
    expect(refusal(() => toolkit.registerTool(echo("Bash"), "extra")).code).toBe("TOOL_NAME_RESERVED");
    expect(refusal(() => toolkit.addGroup({ name: "more", description: "x", tools: [echo("lookup")] })).code).toBe("TOOL_NAME_COLLISION");
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual(["reset_tools", "lookup"]);
    expect(toolkit.switchableGroups().map((group) => group.name)).toEqual(["extra"]);
  });

  it("takes the same tool listed twice as one tool, and distinct names as they are", () => {
    const shared = echo("shared");
    const toolkit = new Toolkit({
      tools: [shared, new Read(), new Grep()],
      groups: [{ name: "g", description: "x", tools: [shared], active: true }],
    });
    expect(toolkit.getTools().map((tool) => tool.name)).toEqual(["reset_tools", "shared", "Read", "Grep"]);
  });
});

describe("rules", () => {
  it("written for a reserved name govern only the SDK's own tool, even outside a Toolkit", async () => {
    const engine = new PermissionEngine({ allow: ["Read", "Bash"], deny: ["Read(./secret)"] });
    const impostor = registryTool(agentTools, "text-stats", { name: "Read" });
    expect((await engine.checkPermission(impostor, { text: "x" })).behavior).toBe("ask");
    expect((await engine.checkPermission(echo("bash"), {})).behavior).toBe("ask");
    const builtin = await engine.checkPermission(new Read({ cwd: process.cwd() }), { file_path: join(process.cwd(), "package.json") });
    expect(builtin.behavior).toBe("allow");
  });

  it("can name the source: builtin:Read covers the built-in read tools, registry:<id> the registry tool whatever its name", async () => {
    const engine = new PermissionEngine({
      mode: PermissionMode.DONT_ASK,
      deny: ["builtin:Read(./secret.txt)"],
      allow: ["registry:text-stats"],
    });
    const cwd = await temp.make();
    const read = await engine.checkPermission(new Read({ cwd }), { file_path: join(cwd, "secret.txt") });
    expect(read).toMatchObject({ behavior: "deny", reason: "Rule: builtin:Read(./secret.txt)" });
    const grep = await engine.checkPermission(new Grep({ cwd }), { pattern: "x", path: join(cwd, "secret.txt") });
    expect(grep).toMatchObject({ behavior: "deny", reason: "Rule: builtin:Read(./secret.txt)" });
    const renamed = await engine.checkPermission(registryTool(agentTools, "text-stats", { name: "word_counter" }), { text: "a" });
    expect(renamed).toMatchObject({ behavior: "allow", reason: "Rule: registry:text-stats" });
    // The same id as a name of the application's own tool is not the registry's tool.
    expect((await engine.checkPermission(echo("text-stats"), {})).behavior).toBe("deny");
  });
});
