import type { McpServerError } from "../errors.js";

/**
 * What happens to the servers of an `McpServers`, for logs and UIs. A failed or disconnected server
 * does not throw: its tools are skipped (failed) or kept for a reconnecting call (disconnected).
 */
export type McpServerEvent =
  | { type: "connected"; server: string; tools: string[] }
  | { type: "failed"; server: string; error: McpServerError }
  | { type: "disconnected"; server: string; error: McpServerError }
  | { type: "tools_changed"; server: string; tools: string[] }
  /** A listed tool's definition is not the approved one: its next call asks, showing `changes` (docs/mcp.md#pinned-definitions). */
  | { type: "definition_changed"; server: string; tool: string; changes: string[] }
  /** A result was cut to `limit` bytes (`maxResultBytes`); the server sent `bytes`. */
  | { type: "result_truncated"; server: string; tool: string; bytes: number; limit: number };

export type McpServerEventListener = (event: McpServerEvent) => void;
