import { fileURLToPath } from "node:url";
import type { McpServers } from "@agent-tools/sdk";
import type { McpServerEvent } from "../../../sdk/src/mcp/client/mcp-events.js";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
/** The MCP server process the client tests talk to (run with `node --import tsx`). */
export const NOTES_SERVER = fileURLToPath(new URL("../../fixtures/mcp/notes-server.ts", import.meta.url));

/** A 1×1 PNG, returned by the notes server's `pixel` tool. */
export const PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** `agent-tools` from source, for `node --import <TSX_LOADER> CLI_MAIN …` in any working directory. */
export const CLI_MAIN = fileURLToPath(new URL("../../../sdk/src/cli/main.ts", import.meta.url));
export const TSX_LOADER = new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

/** The first event among `events` (already seen) or from now on that `predicate` accepts. */
export function waitForEvent(
  events: McpServerEvent[],
  mcps: McpServers,
  predicate: (event: McpServerEvent) => boolean,
): Promise<McpServerEvent> {
  const seen = events.find(predicate);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve) => {
    const stop = mcps.onEvent((event) => {
      if (!predicate(event)) return;
      stop();
      resolve(event);
    });
  });
}
