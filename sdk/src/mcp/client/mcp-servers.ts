import { McpServerError } from "../errors.js";
import { checkServerName } from "../tool-names.js";
import { McpConnection, type McpServerState } from "./mcp-connection.js";
import type { McpServerEvent, McpServerEventListener } from "./mcp-events.js";
import { McpPins } from "./mcp-pins.js";
import type { McpTool } from "./mcp-tool.js";
import { checkServerConfig, type McpServerConfig } from "./server-config.js";

export interface McpServersOptions {
  /** Sees every connect, failure, disconnect and tool-list change. */
  onEvent?: McpServerEventListener;
  /** How long a failed server rests before listing the tools tries it again. Default 5 s. */
  retryIntervalMs?: number;
  /**
   * Keep the approved tool definitions in this JSON file, so an approval outlives the process
   * (docs/mcp.md#pinned-definitions). Default: in memory, for the life of this `McpServers`.
   */
  pinsFile?: string;
}

/** One server as `status()` reports it. */
export interface McpServerStatus {
  server: string;
  state: McpServerState;
  tools: string[];
  error: McpServerError | undefined;
}

const DEFAULT_RETRY_INTERVAL_MS = 5_000;

/**
 * A set of MCP servers whose tools a Toolkit offers (`new Toolkit({ mcps })`) as `mcp__{server}__{tool}`.
 * A server that fails to start is reported (event `failed`) and skipped; one that dies is reported
 * (`disconnected`) and restarted by the next call of one of its tools; `notifications/tools/list_changed`
 * refreshes a server's tools. Each tool's definition is pinned when first listed; a later change asks
 * on the tool's next call (event `definition_changed`). Listing is bounded by `connectTimeoutMs` and
 * `maxTools`, results by `maxResultBytes` (event `result_truncated`).
 *
 * @example
 * const mcps = await McpServers.connect({
 *   files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
 *   remote: { url: "http://127.0.0.1:7000/mcp" },
 * }, { onEvent: (event) => console.error(event) });
 * const toolkit = new Toolkit({ mcps, engine: new PermissionEngine({ allow: ["mcp__files"] }) });
 * // …
 * await mcps.close();
 */
export class McpServers {
  private readonly connections: McpConnection[];
  private readonly listeners = new Set<McpServerEventListener>();
  private readonly retryIntervalMs: number;

  private constructor(configs: Record<string, McpServerConfig>, options: McpServersOptions) {
    if (configs === null || typeof configs !== "object" || Array.isArray(configs)) {
      throw new McpServerError(
        "MCP_CONFIG_INVALID",
        'McpServers.connect() takes an object mapping server names to configs, e.g. { files: { command: "my-server" } }.',
      );
    }
    if (options.onEvent) this.listeners.add(options.onEvent);
    this.retryIntervalMs = options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS;
    const emit = (event: McpServerEvent) => {
      for (const listener of this.listeners) listener(event);
    };
    const pins = new McpPins(options.pinsFile);
    this.connections = Object.entries(configs).map(([server, config]) => {
      checkServerName(server);
      return new McpConnection(server, checkServerConfig(server, config), emit, pins);
    });
  }

  /**
   * Validates every config (throws McpServerError on a misconfigured one), then starts all servers
   * in parallel and resolves once each is connected or has failed.
   */
  static async connect(configs: Record<string, McpServerConfig>, options: McpServersOptions = {}): Promise<McpServers> {
    const servers = new McpServers(configs, options);
    await Promise.all(servers.connections.map((connection) => connection.connect()));
    return servers;
  }

  /** The tools of every server that is up (or died and will reconnect on the next call); retries failed servers in the background. */
  tools(): McpTool[] {
    for (const connection of this.connections) connection.reconnectIfDue(this.retryIntervalMs);
    return this.connections.flatMap((connection) => connection.tools);
  }

  status(): McpServerStatus[] {
    return this.connections.map((connection) => ({
      server: connection.server,
      state: connection.state,
      tools: connection.tools.map((tool) => tool.name),
      error: connection.lastError,
    }));
  }

  /** Reconnects the named server (or every server that is down) now; true when all of them are connected. */
  async reconnect(server?: string): Promise<boolean> {
    const targets = server === undefined ? this.connections : this.connections.filter((connection) => connection.server === server);
    if (targets.length === 0) {
      throw new McpServerError(
        "MCP_SERVER_UNKNOWN",
        `There is no MCP server named "${server}"; known: ${this.connections.map((c) => c.server).join(", ") || "none"}.`,
      );
    }
    const results = await Promise.all(targets.map((connection) => connection.connect()));
    return results.every(Boolean);
  }

  /** Adds an event listener; returns the function that removes it. */
  onEvent(listener: McpServerEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops every stdio server and closes HTTP sessions. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((connection) => connection.close()));
  }
}
