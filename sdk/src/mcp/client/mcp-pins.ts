/** The permission-engine tool name an MCP tool's changed definition is asked about under: `McpDefinition(files/read_file)`. */
export const MCP_DEFINITION_TOOL_NAME = "McpDefinition";
