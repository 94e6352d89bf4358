export * from "./errors.js";
export * from "./permission-engine.js";
export * from "./rule-input.js";
export * from "./rule-syntax.js";
export * from "./types.js";
export * from "./working-directories.js";
export * from "./settings/index.js";
