/**
 * A tool's input is checked against its schema (`tool_api_spec.entrypoints.execute.input`) before
 * anything starts, the same way everywhere: `executeToolById`, a Toolkit, and the MCP server (a real
 * MCP client over an in-memory transport) report the same problems for the same input, and the
 * tool sees only the calls that match (a real Python worker and the real binary-increment build).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AgentTools,
  PermissionEngine,
  PermissionMode,
  Toolkit,
  ToolInputInvalidError,
  createMcpToolServer,
  registryTools,
} from "@agent-tools/sdk";
import { compileIncrement, FIXTURE_TOOLS_DIR, readFixtureSpec } from "../support/bundles.js";

let dir: string;
let tools: AgentTools;

/** Counts the calls that reach it: a call refused for its input never does. */
const COUNTING_TOOL = `class AgentSpaceV1Tool:
    def __init__(self, tool_id, tool_data):
        self.calls = 0

    def execute(self, input_data):
        self.calls += 1
        return {"calls": self.calls, "n": input_data["n"]}
`;
const COUNTING_SCHEMA = {
  type: "object",
  properties: { n: { type: "integer", minimum: 1 } },
  required: ["n"],
  additionalProperties: false,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agent-tools-input-"));
  const counting = join(dir, "counting");
  await mkdir(join(counting, "code"), { recursive: true });
  await writeFile(join(counting, "code", "function.py"), COUNTING_TOOL);
  await writeFile(
    join(counting, "spec.json"),
    JSON.stringify({
      tool_id: "counting",
      tool_runtime_type: "python",
      tool_api_spec: { entrypoints: { execute: { input: COUNTING_SCHEMA } } },
    }),
  );
  const increment = join(dir, "increment");
  await compileIncrement(join(increment, "code"));
  await writeFile(join(increment, "spec.json"), JSON.stringify(readFixtureSpec("binary-increment")));
  tools = new AgentTools({ cacheDir: join(dir, "cache"), sandbox: "off" });
  await tools.add({ path: counting });
  await tools.add({ path: increment });
  await tools.add({ path: join(FIXTURE_TOOLS_DIR, "text-stats") });
});
afterAll(async () => {
  await tools?.close();
  await rm(dir, { recursive: true, force: true });
});

async function refusal(toolId: string, input: unknown): Promise<ToolInputInvalidError> {
  const error = await tools.executeToolById(toolId, input).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ToolInputInvalidError);
  return error as ToolInputInvalidError;
}

describe("executeToolById", () => {
  it("refuses an input that does not match, listing every problem, before the tool sees it", async () => {
    const missing = await refusal("counting", {});
    expect(missing).toMatchObject({ code: "TOOL_INPUT_INVALID", toolId: "counting", problems: "input must have required property 'n'" });
    expect(missing.message).toBe(`The input of tool "counting" does not match its schema: input must have required property 'n'.`);
    const several = await refusal("counting", { n: 0, extra: true });
    expect(several.problems).toBe("input must NOT have additional properties (extra); /n must be >= 1");
    // Neither reached the worker: the first matching call is its first.
    expect(await tools.executeToolById("counting", { n: 2 })).toEqual({ calls: 1, n: 2 });
  });

  it("checks binary tools the same way", async () => {
    expect((await refusal("binary-increment", { value: "41" })).problems).toBe("/value must be number");
    expect(await tools.executeToolById("binary-increment", { value: 41 })).toEqual({ result: 42, status: "success" });
  });

  it("takes no input as {} and checks that", async () => {
    expect((await refusal("text-stats", undefined)).problems).toBe("input must have required property 'text'");
  });
});

describe("the same problems through a Toolkit and the MCP server", () => {
  it("are reported for the same input", async () => {
    const engine = new PermissionEngine({ mode: PermissionMode.BYPASS });
    const toolkit = new Toolkit({ tools: registryTools(tools), engine });
    const tool = toolkit.getTools().find((candidate) => candidate.name === "counting")!;
    const input = { n: 0, extra: true };
    const fromSdk = (await refusal("counting", input)).problems;
    expect(toolkit.validateInput(tool, input)).toBe(fromSdk);

    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createMcpToolServer(toolkit);
    await server.connect(serverSide);
    const client = new Client({ name: "test-host", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      // Refused before the call, whether as a tool error result or as a JSON-RPC error: either way it names the problems.
      const answer = await client.callTool({ name: "counting", arguments: input }).then(
        (result) => (result as CallToolResult).content.map((block) => (block.type === "text" ? block.text : "")).join("\n"),
        (error: Error) => error.message,
      );
      expect(answer).toContain(fromSdk);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
