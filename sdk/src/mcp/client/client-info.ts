import { VERSION } from "../../version.js";

/** How this SDK introduces itself to MCP servers and clients. */
export const CLIENT_INFO = { name: "agent-tools", version: VERSION } as const;
