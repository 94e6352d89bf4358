import type { McpServerError } from "../errors.js";

/**
 * What happens to the servers of an `McpServers`, for logs and UIs. A failed or disconnected server
 * does not throw: its tools are skipped (failed) or kept for a reconnecting call (disconnected).
 */
export type McpServerEvent =
  | { type: "connected"; server: string; tools: string[] }
  | { type: "failed"; server: string; error: McpServerError }
  | { type: "disconnected"; server: string; error: McpServerError }
  | { type: "tools_changed"; server: string; tools: string[] };

export type McpServerEventListener = (event: McpServerEvent) => void;
