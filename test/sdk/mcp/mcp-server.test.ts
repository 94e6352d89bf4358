/**
 * `agent-tools mcp` as a real process, driven by a real MCP client (@modelcontextprotocol/sdk) over
 * stdio and streamable HTTP: registry tools and built-ins listed and called, each call decided by
 * the permission engine with the project's settings file plus the command line's rules and mode;
 * an ASK answered through elicitation (once, always, denied), and refused with the rule to add
 * when the client cannot be asked.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { request } from "node:http";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { runCli } from "../../../sdk/src/cli/run-cli.js";
import { EXIT } from "../../../sdk/src/cli/exit-codes.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { CLI_MAIN, TSX_LOADER } from "./support.js";

let registry: TestRegistry;
let workDir: string;
let cacheDir: string;

beforeAll(async () => {
  [registry, workDir, cacheDir] = await Promise.all([
    startTestRegistry(),
    mkdtemp(join(tmpdir(), "agent-tools-mcp-work-")),
    mkdtemp(join(tmpdir(), "agent-tools-mcp-cache-")),
  ]);
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
  await mkdir(join(workDir, ".agent-tools"));
  await writeFile(join(workDir, ".agent-tools", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(./secret.txt)"] } }));
  await writeFile(join(workDir, "notes.txt"), "the cat and the hat\n");
  await writeFile(join(workDir, "secret.txt"), "hunter2\n");
});
afterAll(async () => {
  await registry?.close();
  await Promise.all([workDir, cacheDir].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

const serverArgs = (...args: string[]) => ["--import", TSX_LOADER, CLI_MAIN, "mcp", "--registry", registry.url, ...args];
const serverEnv = () => ({ ...(process.env as Record<string, string>), AGENT_TOOLS_CACHE_DIR: cacheDir });

type Answer = (request: ElicitRequest) => ElicitResult;

/** A client (with elicitation answered from `answers`, or without elicitation) connected to `agent-tools mcp` over stdio. */
async function stdioClient(args: string[], answers?: Answer[]) {
  const asked: ElicitRequest[] = [];
  const client = new Client({ name: "test-host", version: "1.0.0" }, answers ? { capabilities: { elicitation: { form: {} } } } : {});
  if (answers) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error("unexpected elicitation");
      return answer(request);
    });
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: serverArgs(...args),
    cwd: workDir,
    env: serverEnv(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (data: Buffer) => (stderr += data.toString()));
  await client.connect(transport);
  return { client, asked, stderr: () => stderr };
}

async function callText(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
  return { text, isError: result.isError === true };
}

const decide =
  (decision: string): Answer =>
  () => ({ action: "accept", content: { decision } });

describe("agent-tools mcp over stdio, with a client that supports elicitation", () => {
  let host: Awaited<ReturnType<typeof stdioClient>>;
  const answers: Answer[] = [];

  beforeAll(async () => {
    host = await stdioClient(["text-stats", "--builtin", "Read,Grep", "--builtin", "Write"], answers);
  }, 60_000);
  afterAll(() => host?.client.close());

  it("lists the registry tool and the chosen built-ins with their schemas", async () => {
    const { tools } = await host.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["text-stats", "Read", "Grep", "Write"]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["text"] });
    expect(tools[0]?.annotations?.readOnlyHint).toBe(false);
    expect(host.stderr()).toContain("agent-tools mcp: serving text-stats, Read, Grep, Write on stdio (mode default)");
  });

  it("auto-allows read-only built-ins inside the project and applies the settings file's deny rule", async () => {
    const read = await callText(host.client, "Read", { file_path: join(workDir, "notes.txt") });
    expect(read).toMatchObject({ isError: false });
    expect(read.text).toContain("the cat and the hat");
    const secret = await callText(host.client, "Read", { file_path: join(workDir, "secret.txt") });
    expect(secret.isError).toBe(true);
    expect(secret.text).toBe("Permission to use Read has been denied (Rule: Read(./secret.txt)).");
    expect(secret.text).not.toContain("hunter2");
    expect(host.asked).toHaveLength(0);
  });

  it("asks through elicitation; 'always allow' remembers the rule for the session", async () => {
    answers.push(decide("allow_always"));
    const first = await callText(host.client, "text-stats", { text: "a b a" });
    expect(first.isError).toBe(false);
    expect(JSON.parse(first.text)).toMatchObject({ word_count: 3 });
    expect(host.asked).toHaveLength(1);
    const request = host.asked[0]!.params as unknown as {
      message: string;
      requestedSchema: { properties: { decision: { oneOf: { const: string; title: string }[] } } };
    };
    expect(request.message).toContain("Permission required for text-stats (Mode: default).");
    expect(request.message).toContain('Input: {"text":"a b a"}');
    expect(request.requestedSchema.properties.decision.oneOf.map((choice) => choice.title)).toEqual([
      "Allow once",
      "Always allow (text-stats) for this session",
      "Deny",
    ]);

    const second = await callText(host.client, "text-stats", { text: "x" });
    expect(JSON.parse(second.text)).toMatchObject({ word_count: 1 });
    expect(host.asked).toHaveLength(1); // not asked again
  });

  it("refuses the call when the user denies it, and runs nothing", async () => {
    answers.push(decide("deny"));
    const target = join(workDir, "denied.txt");
    const write = await callText(host.client, "Write", { file_path: target, content: "no" });
    expect(write.isError).toBe(true);
    expect(write.text).toContain('The execution of tool "Write" is denied by user');
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
    answers.push(() => ({ action: "decline" }));
    expect((await callText(host.client, "Write", { file_path: target, content: "no" })).isError).toBe(true);
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });
});

describe("agent-tools mcp --http", () => {
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    server = spawn(
      process.execPath,
      serverArgs("--http", "text-stats", "--builtin", "Write,Read", "--allow", "text-stats", "--mode", "accept_edits"),
      { cwd: workDir, env: serverEnv(), stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    server.stderr!.on("data", (data: Buffer) => (stderr += data.toString()));
    while (!/ on (http:\/\/\S+)/.test(stderr)) {
      if (server.exitCode !== null) throw new Error(`agent-tools mcp exited: ${stderr}`);
      await once(server.stderr!, "data");
    }
    url = / on (http:\/\/\S+)/.exec(stderr)![1]!;
  }, 60_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      server.kill("SIGTERM");
      await once(server, "exit");
    }
  });

  /** A client of the HTTP server; with `answer`, it supports elicitation and answers every question so. */
  async function httpClient(answer?: Answer) {
    const asked: ElicitRequest[] = [];
    const client = new Client({ name: "http-host", version: "1.0.0" }, answer ? { capabilities: { elicitation: { form: {} } } } : {});
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request);
        return answer(request);
      });
    }
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return { client, asked };
  }

  it("serves on loopback; --allow and --mode decide without asking; an ASK goes through elicitation over the session", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client, asked } = await httpClient(decide("allow_once"));
    try {
      // --allow text-stats
      expect(JSON.parse((await callText(client, "text-stats", { text: "a a" })).text)).toMatchObject({ word_count: 2 });
      const inside = join(workDir, "from-http.txt");
      // accept_edits: inside the project
      expect((await callText(client, "Write", { file_path: inside, content: "inside" })).isError).toBe(false);
      expect(asked).toHaveLength(0);
      const outside = join(cacheDir, "outside.txt");
      const write = await callText(client, "Write", { file_path: outside, content: "hello over http" });
      expect(write.isError).toBe(false);
      expect(await readFile(outside, "utf8")).toBe("hello over http");
      expect(asked).toHaveLength(1);
      expect((asked[0]!.params as { message: string }).message).toContain(`Tool: Write\nInput: {"file_path":"${outside}"`);
    } finally {
      await client.close();
    }
  });

  it("refuses an ASK from a client that cannot be asked, naming the rule to add", async () => {
    const { client } = await httpClient();
    try {
      const target = join(cacheDir, "refused.txt");
      const refused = await callText(client, "Write", { file_path: target, content: "no" });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("This MCP client cannot ask you (it does not support elicitation), so the call was refused.");
      expect(refused.text).toContain(
        `start agent-tools mcp with --allow 'Write(${cacheDir}/**)', or add ` +
          `"Write(${cacheDir}/**)" to permissions.allow in .agent-tools/settings.json`,
      );
      await expect(readFile(target)).rejects.toThrow(/ENOENT/);
    } finally {
      await client.close();
    }
  });

  it("refuses a request whose Host header is not loopback (DNS rebinding) and requests without a session", async () => {
    // fetch cannot set Host, so this request goes through node:http.
    const initialize = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    });
    const rebinding = await new Promise<number>((done, fail) => {
      const req = request(
        url,
        {
          method: "POST",
          headers: { host: "evil.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
        },
        (res) => {
          res.resume();
          done(res.statusCode ?? 0);
        },
      );
      req.on("error", fail);
      req.end(initialize);
    });
    expect(rebinding).toBe(403);
    const noSession = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toMatchObject({ error: { message: expect.stringContaining("send an initialize request first") } });
    const notJson = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
  });
});

describe("agent-tools mcp rejects bad invocations", () => {
  async function cli(...args: string[]) {
    let err = "";
    const status = await runCli(["mcp", "--registry", registry.url, ...args], {
      out: () => undefined,
      err: (text) => void (err += text),
      cwd: workDir,
    });
    return { status, err };
  }

  it("needs something to serve, known built-ins and a known mode", async () => {
    expect(await cli()).toEqual({
      status: EXIT.usage,
      err: "agent-tools: name at least one tool to serve: tool ids or folders as arguments, or --builtin Read,Grep.\n",
    });
    const builtin = await cli("--builtin", "Reed");
    expect(builtin.status).toBe(EXIT.failed);
    expect(builtin.err).toContain("Unknown built-in tool Reed; the built-ins are Bash, Read, Write, Edit, Glob, Grep");
    const mode = await cli("--builtin", "Read", "--mode", "yolo");
    expect(mode).toMatchObject({
      status: EXIT.usage,
      err: expect.stringContaining('unknown --mode "yolo"; use one of default, accept_edits'),
    });
    const rule = await cli("--builtin", "Read", "--allow", "Read(");
    expect(rule.status).toBe(EXIT.failed);
    expect(rule.err).toContain("Read(");
  });
});
