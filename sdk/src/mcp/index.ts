// `@agent-tools/sdk/mcp`: MCP servers' tools in a Toolkit, and registry tools served to MCP hosts (docs/mcp.md).
export { McpServerError } from "./errors.js";
export { mcpToolName } from "./tool-names.js";
export { McpServers, type McpServersOptions, type McpServerStatus } from "./client/mcp-servers.js";
export { McpTool, type McpToolCaller } from "./client/mcp-tool.js";
export type { McpServerEvent, McpServerEventListener } from "./client/mcp-events.js";
export type { McpHttpServerConfig, McpServerConfig, McpStdioServerConfig } from "./client/server-config.js";
export type { McpServerState } from "./client/mcp-connection.js";
export { createMcpToolServer, type McpToolServerOptions } from "./server/tool-server.js";
export { serveMcpOverHttp, type McpHttpHost, type McpHttpHostOptions } from "./server/http-host.js";
export { serveMcpOverStdio, type McpStdioHost, type McpStdioHostOptions } from "./server/stdio-host.js";
export type { McpServerErrorCode } from "../error-codes.js";
