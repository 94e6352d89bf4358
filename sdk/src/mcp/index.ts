export * from "./errors.js";
export * from "./tool-names.js";
export * from "./client/index.js";
