export * from "./mcp-servers.js";
export * from "./mcp-tool.js";
export * from "./mcp-events.js";
export * from "./server-config.js";
export { type McpServerState } from "./mcp-connection.js";
export { toToolChunk } from "./call-result.js";
