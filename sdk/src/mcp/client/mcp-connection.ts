import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { OutputTail } from "../../runtimes/output-tail.js";
import { McpServerError } from "../errors.js";
import { CLIENT_INFO } from "./client-info.js";
import type { McpServerEvent } from "./mcp-events.js";
import { boundedResult } from "./bounded-result.js";
import { serverIdentity, type McpDefinitionChange, type McpPins } from "./mcp-pins.js";
import { McpTool, type McpToolCaller } from "./mcp-tool.js";
import { isStdioConfig, type McpServerConfig } from "./server-config.js";

/**
 * connecting → connected → disconnected (died; its tools stay listed, the next call reconnects) or failed (no
 * tools until a reconnect works).
 */
export type McpServerState = "connecting" | "connected" | "disconnected" | "failed" | "closed";

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** More tools than a model can choose among; a server listing more is broken or hostile (docs/mcp.md#limits). */
const DEFAULT_MAX_TOOLS = 500;
/** About 64k tokens: what one call may add to the model's context (docs/mcp.md#limits). */
const DEFAULT_MAX_RESULT_BYTES = 256 * 1024;
const STDERR_TAIL = 4096;
/** Debounce for `notifications/tools/list_changed`: a server registering several tools at once is listed once. */
const LIST_CHANGED_DEBOUNCE_MS = 50;
/** How long a failure report waits for the rest of the server's stderr. */
const STDERR_GRACE_MS = 300;

/**
 * One MCP server: starts (or reaches) it, lists its tools, calls them, follows list changes and
 * notices when it dies. Never throws from `connect`: failures become events and state, so one bad
 * server cannot take down an agent with several.
 */
export class McpConnection implements McpToolCaller {
  state: McpServerState = "connecting";
  tools: McpTool[] = [];
  lastError: McpServerError | undefined;
  private client: Client | undefined;
  private connecting: Promise<boolean> | undefined;
  private lastAttempt = 0;
  private stderr = new OutputTail(STDERR_TAIL);
  /** Resolves when the server's stderr has ended: its last words often arrive just after the exit is noticed. */
  private stderrEnded: Promise<void> = Promise.resolve();
  /** Whose approved definitions this server's tools are checked against. */
  private readonly identity: string;

  constructor(
    readonly server: string,
    private readonly config: McpServerConfig,
    private readonly emit: (event: McpServerEvent) => void,
    private readonly pins: McpPins,
  ) {
    this.identity = serverIdentity(server, config);
  }

  /** Connects unless connected or closed; true when connected afterwards. Concurrent calls share one attempt. */
  connect(): Promise<boolean> {
    if (this.state === "connected" || this.state === "closed") return Promise.resolve(this.state === "connected");
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Starts a reconnect in the background when the server is down and the last attempt is older than `intervalMs`. */
  reconnectIfDue(intervalMs: number): void {
    if (this.state !== "failed" && this.state !== "disconnected") return;
    if (this.connecting !== undefined || Date.now() - this.lastAttempt < intervalMs) return;
    void this.connect();
  }

  async callTool(tool: string, input: Record<string, unknown>, signal: AbortSignal | undefined): Promise<CallToolResult> {
    if (!(await this.connect()) || this.client === undefined) {
      throw new McpServerError(
        "MCP_SERVER_UNAVAILABLE",
        `MCP server "${this.server}" is not available: ${this.lastError?.message ?? this.state}`,
        {
          server: this.server,
          cause: this.lastError,
        },
      );
    }
    const client = this.client;
    let result: CallToolResult;
    try {
      result = (await client.callTool({ name: tool, arguments: input }, undefined, { signal, timeout: this.timeoutMs })) as CallToolResult;
    } catch (error) {
      if (!(error instanceof McpError) || error.code === ErrorCode.ConnectionClosed) this.dropClient(client, error);
      throw new McpServerError(
        "MCP_CALL_FAILED",
        `MCP server "${this.server}" failed to run tool "${tool}": ${describe(error)}${await this.stderrHint()}`,
        {
          server: this.server,
          cause: error,
        },
      );
    }
    const limit = this.config.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    const bounded = boundedResult(result, limit, this.server);
    if (bounded.truncated) this.emit({ type: "result_truncated", server: this.server, tool, bytes: bounded.bytes, limit });
    return bounded.result;
  }

  approveDefinition(tool: string, change: McpDefinitionChange): Promise<void> {
    return this.pins.approve(this.identity, tool, change);
  }

  async close(): Promise<void> {
    this.state = "closed";
    this.tools = [];
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private get timeoutMs(): number {
    return this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** A method, not a field read, because `close()` may run while `open()` awaits. */
  private get closed(): boolean {
    return this.state === "closed";
  }

  private async open(): Promise<boolean> {
    this.lastAttempt = Date.now();
    this.state = "connecting";
    this.stderr = new OutputTail(STDERR_TAIL);
    const client = new Client(CLIENT_INFO, {
      listChanged: { tools: { autoRefresh: false, debounceMs: LIST_CHANGED_DEBOUNCE_MS, onChanged: () => void this.refreshTools(client) } },
    });
    client.onclose = () => this.dropClient(client, new Error("the connection closed"));
    client.onerror = () => undefined; // transport noise; failures surface through requests and onclose
    // One deadline for the handshake and the whole listing: a server paging tools/list forever must not hold connect().
    const connectTimeoutMs = this.config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(connectTimeoutMs);
    try {
      await client.connect(this.createTransport(), { timeout: connectTimeoutMs, signal: deadline });
      const tools = await this.listTools(client, deadline, `connectTimeoutMs (${connectTimeoutMs} ms)`);
      if (this.closed) {
        await client.close().catch(() => undefined);
        return false;
      }
      this.client = client;
      this.tools = tools;
      this.state = "connected";
      this.lastError = undefined;
      this.emit({ type: "connected", server: this.server, tools: tools.map((tool) => tool.name) });
      this.reportChanges(tools);
      return true;
    } catch (error) {
      await client.close().catch(() => undefined);
      if (this.closed) return false;
      const cause =
        deadline.aborted && !(error instanceof ListingDeadlineError)
          ? `starting it took longer than connectTimeoutMs (${connectTimeoutMs} ms)`
          : describe(error);
      const failure = new McpServerError(
        "MCP_SERVER_FAILED",
        `MCP server "${this.server}" did not start: ${cause}${await this.stderrHint()}`,
        { server: this.server, cause: error },
      );
      if (this.closed) return false;
      this.state = "failed";
      this.tools = [];
      this.lastError = failure;
      this.emit({ type: "failed", server: this.server, error: failure });
      return false;
    }
  }

  private createTransport(): Transport {
    const { config } = this;
    if (!isStdioConfig(config)) {
      return new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers ?? {} } });
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { ...getDefaultEnvironment(), ...config.env },
      stderr: "pipe",
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    });
    const { stderr } = transport;
    if (stderr !== null) {
      stderr.on("data", (data: Buffer) => this.stderr.push(data.toString("utf8")));
      this.stderrEnded = new Promise((done) => {
        stderr.once("end", done);
        stderr.once("close", done);
      });
    }
    return transport;
  }

  /**
   * Every page of `tools/list` within `deadline` and `maxTools`, each tool checked against its pin:
   * a changed definition is asked about on the tool's next call.
   */
  private async listTools(client: Client, deadline: AbortSignal, deadlineName: string): Promise<McpTool[]> {
    const maxTools = this.config.maxTools ?? DEFAULT_MAX_TOOLS;
    const definitions: Tool[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.timeoutMs, signal: deadline });
        definitions.push(...page.tools);
        if (definitions.length > maxTools)
          throw new Error(
            `it lists more than ${maxTools} tools (maxTools in its config; a server that pages tools/list forever is refused)`,
          );
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      if (deadline.aborted)
        throw new ListingDeadlineError(`listing its tools took longer than ${deadlineName}; ${definitions.length} listed by then`);
      throw error;
    }
    const trustReadOnlyHint = this.config.trustReadOnlyHint ?? false;
    const tools: McpTool[] = [];
    for (const definition of definitions) {
      const change = await this.pins.check(this.identity, definition);
      tools.push(new McpTool(this, definition, { trustReadOnlyHint, change }));
    }
    return tools;
  }

  private async refreshTools(client: Client): Promise<void> {
    if (this.client !== client) return;
    try {
      const tools = await this.listTools(client, AbortSignal.timeout(this.timeoutMs), `timeoutMs (${this.timeoutMs} ms)`);
      if (this.client !== client) return;
      this.tools = tools;
      this.emit({ type: "tools_changed", server: this.server, tools: tools.map((tool) => tool.name) });
      this.reportChanges(tools);
    } catch (error) {
      this.dropClient(client, error);
    }
  }

  /** One `definition_changed` event per listed tool that is not the approved one, once the tools are in place. */
  private reportChanges(tools: readonly McpTool[]): void {
    for (const tool of tools) {
      const change = tool.definitionChange;
      if (change !== undefined)
        this.emit({ type: "definition_changed", server: this.server, tool: tool.mcpToolName, changes: change.changes });
    }
  }

  /** The server died or the transport broke: keep its tools listed so the next call reconnects. */
  private dropClient(client: Client, cause: unknown): void {
    if (this.client !== client || this.state === "closed") return;
    this.client = undefined;
    this.state = "disconnected";
    void client.close().catch(() => undefined);
    void this.stderrHint().then((hint) => {
      const error = new McpServerError("MCP_SERVER_DISCONNECTED", `MCP server "${this.server}" disconnected: ${describe(cause)}${hint}`, {
        server: this.server,
        cause,
      });
      if (this.state === "disconnected") this.lastError = error;
      this.emit({ type: "disconnected", server: this.server, error });
    });
  }

  private async stderrHint(): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.stderrEnded, new Promise((done) => (timer = setTimeout(done, STDERR_GRACE_MS)))]);
    clearTimeout(timer);
    const tail = this.stderr.text().trim();
    return tail === "" ? "" : `\nserver stderr (last lines):\n${tail.split("\n").slice(-10).join("\n")}`;
  }
}

/** The listing ran past its deadline (the message says which and how far it got). */
class ListingDeadlineError extends Error {}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
