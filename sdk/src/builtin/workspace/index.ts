export * from "./local-workspace-backend.js";
export * from "./workspace-backend.js";
export * from "./sandboxed-workspace-backend.js";
