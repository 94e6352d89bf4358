/**
 * The SDK's MCP client against a real MCP server process (test/fixtures/mcp/notes-server.ts, written
 * with @modelcontextprotocol/sdk), over stdio and over streamable HTTP on loopback: tool naming and
 * schemas, result mapping, permission rules on whole servers and single tools, the untrusted
 * readOnlyHint, a server that fails to start, one that dies and comes back, and list changes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpServerError, McpServers, PermissionEngine, PermissionMode, ToolResultState, Toolkit } from "@agent-tools/sdk";
import type { McpServerEvent } from "../../../sdk/src/mcp/client/mcp-events.js";
import type { McpStdioServerConfig } from "../../../sdk/src/mcp/client/server-config.js";
import { NOTES_SERVER, PIXEL_PNG, REPO_ROOT, waitForEvent } from "./support.js";

const notesConfig = (extra: Partial<McpStdioServerConfig> = {}): McpStdioServerConfig => ({
  command: process.execPath,
  args: ["--import", "tsx", NOTES_SERVER],
  cwd: REPO_ROOT,
  ...extra,
});

/** Runs one call through a Toolkit directly (no permission check) and returns the response. */
async function call(toolkit: Toolkit, name: string, input: Record<string, unknown> = {}) {
  const stream = toolkit.callTool({ id: `call-${name}`, name, input });
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}

describe("MCP client over stdio", () => {
  let mcps: McpServers;
  const events: McpServerEvent[] = [];

  beforeAll(async () => {
    mcps = await McpServers.connect(
      {
        notes: notesConfig(),
        trusted: notesConfig({ trustReadOnlyHint: true }),
        broken: { command: "/nonexistent/mcp-server" },
        exits: { command: process.execPath, args: ["-e", "process.stderr.write('missing API key FOO_TOKEN\\n'); process.exit(2)"] },
      },
      // No background retries of the failed servers here: the retry test below asks for one.
      { onEvent: (event) => events.push(event), retryIntervalMs: 600_000 },
    );
  });
  afterAll(() => mcps?.close());

  it("names each tool mcp__{server}__{tool}, marks it as MCP and takes the server's input schema", () => {
    const toolkit = new Toolkit({ mcps });
    const notes = toolkit.getTools().filter((tool) => tool.mcpName === "notes");
    expect(notes.map((tool) => tool.name).sort()).toEqual(
      ["add_tool", "count_notes", "crash", "fail", "pid", "pixel", "read_note", "write_note"].map((name) => `mcp__notes__${name}`),
    );
    const write = toolkit.getTool("mcp__notes__write_note")!;
    expect(write.isMcp).toBe(true);
    expect(write.description).toBe("Write a note.");
    expect(write.inputSchema).toEqual({
      type: "object",
      properties: { name: { type: "string" }, text: { type: "string" } },
      required: ["name", "text"],
    });
    expect(toolkit.getSchemas().find((schema) => schema.function.name === "mcp__notes__write_note")?.function.parameters).toEqual(
      write.inputSchema,
    );
  });

  it("reports servers that fail to start as events with the cause, skips them and keeps the others", () => {
    const failed = events.filter((event) => event.type === "failed");
    expect(failed.map((event) => event.server).sort()).toEqual(["broken", "exits"]);
    const exits = failed.find((event) => event.server === "exits");
    expect(exits?.type === "failed" && exits.error.message).toContain("missing API key FOO_TOKEN");
    // Listing tools retries a failed server in the background, so it may be "connecting" again by now.
    const broken = mcps.status().find((status) => status.server === "broken");
    expect(["failed", "connecting"]).toContain(broken?.state);
    expect(broken?.tools).toEqual([]);
    const brokenEvent = failed.find((event) => event.server === "broken");
    expect(brokenEvent?.type === "failed" && brokenEvent.error).toBeInstanceOf(McpServerError);
    expect(new Toolkit({ mcps }).getTools().some((tool) => tool.mcpName === "broken" || tool.mcpName === "exits")).toBe(false);
  });

  it("tries a failed server again on request, reporting each failure", async () => {
    const before = events.filter((event) => event.type === "failed" && event.server === "exits").length;
    expect(await mcps.reconnect("exits")).toBe(false);
    expect(events.filter((event) => event.type === "failed" && event.server === "exits")).toHaveLength(before + 1);
    await expect(mcps.reconnect("nobody")).rejects.toThrow(/no MCP server named "nobody"; known: notes, trusted, broken, exits/);
  });

  it("maps text, images, structured content and error results to ToolChunks", async () => {
    const toolkit = new Toolkit({ mcps });
    const read = await call(toolkit, "mcp__notes__read_note", { name: "hello" });
    expect(read.text).toBe("world");
    expect(read.state).toBe(ToolResultState.SUCCESS);

    const pixel = await call(toolkit, "mcp__notes__pixel");
    expect(pixel.content).toEqual([
      { type: "data", source: { type: "base64", mediaType: "image/png", data: PIXEL_PNG } },
      { type: "text", text: "a pixel" },
    ]);

    const count = await call(toolkit, "mcp__notes__count_notes");
    expect(count.metadata.structuredContent).toEqual({ count: 1 });
    expect(JSON.parse(count.text)).toEqual({ count: 1 });

    const fail = await call(toolkit, "mcp__notes__fail");
    expect(fail.state).toBe(ToolResultState.ERROR);
    expect(fail.text).toBe("this tool always fails");
  });

  it("does not trust readOnlyHint unless the server's config says so", async () => {
    const toolkit = new Toolkit({ mcps });
    const explore = new PermissionEngine({ mode: PermissionMode.EXPLORE });
    const untrusted = toolkit.getTool("mcp__notes__read_note")!;
    const trusted = toolkit.getTool("mcp__trusted__read_note")!;
    expect(untrusted.isReadOnly).toBe(false);
    expect((await explore.checkPermission(untrusted, { name: "hello" })).behavior).toBe("deny");
    expect(trusted.isReadOnly).toBe(true);
    expect((await explore.checkPermission(trusted, { name: "hello" })).behavior).toBe("allow");
    expect((await explore.checkPermission(toolkit.getTool("mcp__trusted__write_note")!, { name: "a", text: "b" })).behavior).toBe("deny");
  });

  it("applies whole-server rules (mcp__notes) and single-tool rules (mcp__notes__read_note)", async () => {
    const toolkit = new Toolkit({ mcps });
    const read = toolkit.getTool("mcp__notes__read_note")!;
    const write = toolkit.getTool("mcp__notes__write_note")!;
    const byTool = new PermissionEngine({ allow: ["mcp__notes__read_note"] });
    expect((await byTool.checkPermission(read, { name: "x" })).behavior).toBe("allow");
    const asked = await byTool.checkPermission(write, { name: "x", text: "y" });
    expect(asked.behavior).toBe("ask");
    expect(asked.suggestions).toEqual([{ toolName: "mcp__notes__write_note", behavior: "allow", source: "suggested" }]);
    const byServer = new PermissionEngine({ allow: ["mcp__notes"], deny: ["mcp__notes__crash"] });
    expect((await byServer.checkPermission(write, { name: "x", text: "y" })).behavior).toBe("allow");
    expect((await byServer.checkPermission(toolkit.getTool("mcp__notes__crash")!, {})).behavior).toBe("deny");
    expect((await byServer.checkPermission(toolkit.getTool("mcp__trusted__write_note")!, { name: "x", text: "y" })).behavior).toBe("ask");
  });

  it("runs an LLM's calls through the engine: allowed by the server rule, refused in DONT_ASK otherwise", async () => {
    const toolkit = new Toolkit({ mcps, engine: new PermissionEngine({ mode: PermissionMode.DONT_ASK, allow: ["mcp__notes"] }) });
    const responses = await toolkit.createExecutor().runToCompletion(
      [
        { id: "1", name: "mcp__notes__write_note", input: JSON.stringify({ name: "plan", text: "ship it" }) },
        { id: "2", name: "mcp__trusted__write_note", input: { name: "plan", text: "nope" } },
        { id: "3", name: "mcp__notes__read_note", input: { name: "plan" } },
      ],
      { confirm: async () => [] },
    );
    expect(responses.map((response) => response.state)).toEqual([ToolResultState.SUCCESS, ToolResultState.DENIED, ToolResultState.SUCCESS]);
    expect(responses[2]!.text).toBe("ship it");
  });

  it("reports a server that dies and restarts it on the next call", async () => {
    const toolkit = new Toolkit({ mcps });
    const before = (await call(toolkit, "mcp__notes__pid")).text;
    const crashed = await call(toolkit, "mcp__notes__crash");
    expect(crashed.state).toBe(ToolResultState.ERROR);
    expect(crashed.text).toMatch(/MCP server "notes" failed to run tool "crash"/);
    expect(crashed.text).toContain("crashing on request"); // the server's stderr tail
    await waitForEvent(events, mcps, (event) => event.type === "disconnected" && event.server === "notes");
    expect(toolkit.getTool("mcp__notes__pid")).toBeDefined(); // still listed: the next call reconnects
    const after = await call(toolkit, "mcp__notes__pid");
    expect(after.state).toBe(ToolResultState.SUCCESS);
    expect(after.text).not.toBe(before);
    expect(mcps.status().find((status) => status.server === "notes")?.state).toBe("connected");
  });

  it("refreshes a server's tools on notifications/tools/list_changed", async () => {
    const toolkit = new Toolkit({ mcps });
    expect(toolkit.getTool("mcp__notes__latextool")).toBeUndefined();
    const changed = waitForEvent([], mcps, (event) => event.type === "tools_changed" && event.server === "notes");
    await call(toolkit, "mcp__notes__add_tool");
    await changed;
    const late = toolkit.getTool("mcp__notes__latextool");
    expect(late?.description).toBe("Added at runtime.");
    expect((await call(toolkit, "mcp__notes__latextool")).text).toBe("late tool ran");
  });
});

describe("MCP client over streamable HTTP", () => {
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    server = spawn(process.execPath, ["--import", "tsx", NOTES_SERVER, "--http"], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    server.stdout!.on("data", (data: Buffer) => (output += data.toString()));
    while (!/listening (\S+)/.test(output)) await once(server.stdout!, "data");
    url = /listening (\S+)/.exec(output)![1]!;
  });
  afterAll(() => {
    server?.kill();
  });

  it("lists and calls a remote server's tools", async () => {
    const mcps = await McpServers.connect({ remote: { url } });
    try {
      const toolkit = new Toolkit({
        mcps,
        engine: new PermissionEngine({ mode: PermissionMode.DONT_ASK, allow: ["mcp__remote__read_note"] }),
      });
      expect(toolkit.getTool("mcp__remote__read_note")?.mcpName).toBe("remote");
      const [read, write] = await toolkit.createExecutor().runToCompletion(
        [
          { id: "1", name: "mcp__remote__read_note", input: { name: "hello" } },
          { id: "2", name: "mcp__remote__write_note", input: { name: "a", text: "b" } },
        ],
        { confirm: async () => [] },
      );
      expect(read!.text).toBe("world");
      expect(write!.state).toBe(ToolResultState.DENIED);
      expect((await call(toolkit, "mcp__remote__pixel")).content[0]).toMatchObject({ type: "data", source: { mediaType: "image/png" } });
    } finally {
      await mcps.close();
    }
  });

  it("reports an unreachable URL as a failed server", async () => {
    const events: McpServerEvent[] = [];
    const mcps = await McpServers.connect(
      { gone: { url: "http://127.0.0.1:9/mcp", connectTimeoutMs: 5000 } },
      { onEvent: (event) => events.push(event) },
    );
    await mcps.close();
    expect(events).toMatchObject([{ type: "failed", server: "gone" }]);
  });
});

describe("MCP server configs", () => {
  it("rejects bad configs and names with a message saying what to fix", async () => {
    await expect(McpServers.connect({ x: { command: "a", url: "http://127.0.0.1/mcp" } as never })).rejects.toThrow(
      /exactly one of `command`/,
    );
    await expect(McpServers.connect({ x: { url: "ftp://example.com" } })).rejects.toThrow(/http:\/\/ or https:\/\//);
    await expect(McpServers.connect({ x: { command: "a", args: "b" } as never })).rejects.toThrow(/`args` must be an array of strings/);
    await expect(McpServers.connect({ my__server: { command: "a" } })).rejects.toThrow(/no "__"/);
  });
});
