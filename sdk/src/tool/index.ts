export * from "./agent-state.js";
export * from "./errors.js";
export * from "./tool-base.js";
export * from "./tool-chunk.js";
export * from "./tool-middleware.js";
export * from "./tool-response.js";
export * from "./external-tool.js";
export * from "./function-tool.js";
