import { McpServerError } from "./errors.js";

/** Server names become part of tool and rule names (`mcp__files__read_file`), so `__` would make them ambiguous. */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;

/** Throws when `server` cannot name an MCP server; says what to use instead. */
export function checkServerName(server: string): void {
  if (server.length > 0 && server.length <= 64 && SERVER_NAME.test(server)) return;
  throw new McpServerError(
    "MCP_SERVER_NAME",
    `MCP server name ${JSON.stringify(server)} must be 1-64 letters, digits, "-" or single "_" (no "__", ` +
      `no leading or trailing "_"), since tools are named mcp__<server>__<tool>. Rename it, e.g. "files".`,
    { server },
  );
}

/**
 * The name an MCP tool has in a Toolkit: `mcp__{server}__{tool}`, other characters than [A-Za-z0-9_-]
 * becoming "x" (docs/design/builtin-tools.md#mcp-names).
 */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, "x")}`;
}
