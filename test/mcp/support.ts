import { fileURLToPath } from "node:url";

export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The MCP server process the client tests talk to (run with `node --import tsx`). */
export const NOTES_SERVER = fileURLToPath(new URL("../fixtures/mcp/notes-server.ts", import.meta.url));

/** A 1×1 PNG, returned by the notes server's `pixel` tool. */
export const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
