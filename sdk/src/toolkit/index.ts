export * from "./errors.js";
export * from "./openai-messages.js";
export * from "./reset-tools.js";
export * from "./tool-call.js";
export * from "./tool-call-executor.js";
export * from "./tool-group.js";
export * from "./toolkit.js";
