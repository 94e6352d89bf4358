export * from "./registry-tool.js";
export * from "./registry-tool-record.js";
export * from "./registry-tool-source.js";
