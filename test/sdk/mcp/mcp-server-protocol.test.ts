/**
 * `agent-tools mcp` as a host sees it, driven by the MCP SDK's own client over the server's real
 * stdio: the process ends with status 0 when the host closes its input (the SDK's `client.close()`)
 * and on SIGTERM or SIGINT, taking its Python workers with it; an unknown tool and arguments that
 * do not match the input schema are JSON-RPC errors (-32602) and run nothing; a tool whose spec
 * declares `execute.output` lists it as `outputSchema`, and its result comes back as
 * `structuredContent` (which the client itself checks against that schema), while a result that
 * breaks the declared schema is the tool's error.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type CallToolResult, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { processesMatching } from "../support/process-state.js";
import { toolWithExecute, writePythonTool } from "../support/python-tool-folder.js";
import { TempDirs } from "../support/temp-dirs.js";
import { CLI_MAIN, TSX_LOADER } from "./support.js";

const temp = new TempDirs();
let registry: TestRegistry;
let workDir: string;
/** A local tool whose spec promises `{ n: integer }` and whose code returns whatever its input's `give` is. */
let promiseBreaker: string;

beforeAll(async () => {
  [registry, workDir] = await Promise.all([startTestRegistry(), temp.make("agent-tools-mcp-protocol-")]);
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
  promiseBreaker = await writePythonTool(workDir, "promise-breaker", toolWithExecute('return input_data["give"]'));
  await writeFile(
    join(promiseBreaker, "spec.json"),
    JSON.stringify({
      tool_id: "promise-breaker",
      tool_metadata: { version: "1.0.0" },
      tool_api_spec: {
        entrypoints: {
          execute: {
            input: { type: "object", properties: { give: {} }, required: ["give"] },
            output: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
          },
        },
      },
    }),
  );
}, 60_000);
afterAll(async () => {
  await registry?.close();
  await temp.removeAll();
});

/** The MCP SDK's client framing over a child process we own, so the test can read its exit status. */
class ChildTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(private readonly child: ChildProcess) {}

  async start(): Promise<void> {
    this.child.stdout!.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message !== null; message = this.buffer.readMessage()) this.onmessage?.(message);
    });
    this.child.once("exit", () => this.onclose?.());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child.stdin!.write(serializeMessage(message));
  }

  /** What the SDK's StdioClientTransport does first on close: end the server's input. */
  async close(): Promise<void> {
    this.child.stdin!.end();
  }
}

interface Served {
  child: ChildProcess;
  client: Client;
  cacheDir: string;
  stderr: () => string;
  /** Resolves with the exit code (null when a signal killed it) and the signal. */
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

async function serve(...args: string[]): Promise<Served> {
  const cacheDir = await temp.make("agent-tools-mcp-protocol-cache-");
  const child = spawn(process.execPath, ["--import", TSX_LOADER, CLI_MAIN, "mcp", "--registry", registry.url, ...args], {
    cwd: workDir,
    env: { ...process.env, AGENT_TOOLS_CACHE_DIR: cacheDir },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (data: Buffer) => (stderr += data.toString()));
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const client = new Client({ name: "protocol-host", version: "1.0.0" });
  await client.connect(new ChildTransport(child));
  return { child, client, cacheDir, stderr: () => stderr, exited };
}

/** Python workers started for this server, found by the cache folder in their environment. */
const workersOf = (served: Served) => processesMatching(`AGENT_TOOLS_STATE_DIR=${served.cacheDir}/`, "environ");

describe("agent-tools mcp ends normally", () => {
  it("exits 0 when the host closes its input, and stops the tool's worker", async () => {
    const served = await serve("text-stats", "--allow", "text-stats");
    const result = (await served.client.callTool({ name: "text-stats", arguments: { text: "a b a" } })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(workersOf(served).length).toBeGreaterThan(0);
    await served.client.close();
    expect(await served.exited, served.stderr()).toEqual([0, null]);
    await expect.poll(() => workersOf(served).length, { timeout: 5_000 }).toBe(0);
  }, 60_000);

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`exits 0 on ${signal}`, async () => {
      const served = await serve("text-stats", "--allow", "text-stats");
      await served.client.callTool({ name: "text-stats", arguments: { text: "x" } });
      served.child.kill(signal);
      expect(await served.exited, served.stderr()).toEqual([0, null]);
      await expect.poll(() => workersOf(served).length, { timeout: 5_000 }).toBe(0);
    }, 60_000);
  }
});

describe("agent-tools mcp answers protocol errors and structured results", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve("text-stats", promiseBreaker, "--allow", "text-stats", "--allow", "promise-breaker", "--builtin", "Read");
  }, 60_000);
  afterAll(async () => {
    await served?.client.close();
    await served?.exited;
  });

  /** The JSON-RPC error a call was answered with (the client throws it as an McpError). */
  async function rpcError(name: string, args: Record<string, unknown>): Promise<McpError> {
    const error = await served.client.callTool({ name, arguments: args }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(McpError);
    return error as McpError;
  }

  it("answers an unknown tool with -32602 naming it", async () => {
    const error = await rpcError("no-such-tool", {});
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("The tool named 'no-such-tool' doesn't exist.");
  });

  it("answers arguments that break the input schema with -32602 naming the problem, before the tool runs", async () => {
    const wrongType = await rpcError("text-stats", { text: 42 });
    expect(wrongType.code).toBe(ErrorCode.InvalidParams);
    expect(wrongType.message).toContain("Invalid arguments for tool text-stats: /text must be string");
    const missing = await rpcError("promise-breaker", {});
    expect(missing.code).toBe(ErrorCode.InvalidParams);
    expect(missing.message).toContain("must have required property 'give'");
  });

  it("lists execute.output as the outputSchema of tools that declare one, and none for the rest", async () => {
    const { tools } = await served.client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName["text-stats"]?.outputSchema).toEqual({
      type: "object",
      properties: {
        word_count: { type: "integer" },
        unique_words: { type: "integer" },
        top_words: { type: "array", items: { type: "string" } },
      },
    });
    expect(byName["promise-breaker"]?.outputSchema).toMatchObject({ required: ["n"] });
    expect(byName["Read"]?.outputSchema).toBeUndefined();
  });

  it("returns the result as structuredContent beside its JSON text", async () => {
    const result = (await served.client.callTool({ name: "text-stats", arguments: { text: "b a b" } })) as CallToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ word_count: 3, unique_words: 2, top_words: ["b", "a"] });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    const kept = (await served.client.callTool({ name: "promise-breaker", arguments: { give: { n: 7 } } })) as CallToolResult;
    expect(kept.structuredContent).toEqual({ n: 7 });
  });

  it("turns a result that breaks the declared output schema into the tool's error, saying how", async () => {
    const wrong = (await served.client.callTool({ name: "promise-breaker", arguments: { give: { n: "seven" } } })) as CallToolResult;
    expect(wrong.isError).toBe(true);
    expect(wrong.structuredContent).toBeUndefined();
    expect((wrong.content[0] as { text: string }).text).toBe(
      "Tool promise-breaker returned a result that does not match its output schema: /n must be integer.",
    );
    const notObject = (await served.client.callTool({ name: "promise-breaker", arguments: { give: [1, 2] } })) as CallToolResult;
    expect(notObject.isError).toBe(true);
    expect((notObject.content[0] as { text: string }).text).toBe(
      "Tool promise-breaker declares an output schema but returned no JSON object; its output was: [1,2]",
    );
  });
});
