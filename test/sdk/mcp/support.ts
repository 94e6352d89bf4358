import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The MCP server process the client tests talk to (run with `node --import tsx`). */
export const NOTES_SERVER = fileURLToPath(new URL("../../fixtures/mcp/notes-server.ts", import.meta.url));

/** A 1×1 PNG, returned by the notes server's `pixel` tool. */
export const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** `agent-tools` from source, for `node --import <TSX_LOADER> CLI_MAIN …` in any working directory. */
export const CLI_MAIN = fileURLToPath(new URL("../../../sdk/src/cli/main.ts", import.meta.url));
export const TSX_LOADER = new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
