/** The SDK version, reported to registries and MCP peers. */
export const VERSION = "0.1.0";
