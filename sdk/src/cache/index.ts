export { resolveCacheDir } from "./cache-dir.js";
export { readLocalTool, type LocalTool, type LocalToolSource } from "./local-tool-source.js";
export { registryToolTree } from "./registry-tool-tree.js";
export { ToolCache } from "./tool-cache.js";
export type { ToolTree } from "./tool-tree.js";
