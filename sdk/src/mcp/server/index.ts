export * from "./tool-server.js";
export * from "./http-host.js";
export { toCallToolResult } from "./call-tool-result.js";
