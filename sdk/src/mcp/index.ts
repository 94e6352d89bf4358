export * from "./errors.js";
export * from "./tool-names.js";
export * from "./client/index.js";
export * from "./server/index.js";
