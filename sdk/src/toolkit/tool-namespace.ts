import { reservedToolName } from "../tool-spec/reserved-tool-names.js";
import type { ToolBase } from "../tool/tool-base.js";
import { ToolkitError } from "./errors.js";

type AnyTool = ToolBase<any>;

/**
 * One namespace for every tool of a Toolkit (docs/permissions.md#one-namespace-for-tools): a
 * reserved name (`Read`, `Skill`, `reset_tools`, … and the `mcp__` prefix, case-insensitively)
 * belongs to the SDK's own tool (or to MCP tools), and no two tools share a name, compared
 * case-insensitively too, so neither the LLM nor a rule can mistake one for the other. Throws a
 * ToolkitError naming both tools; the same instance listed twice is one tool.
 */
export function checkToolNamespace(tools: readonly AnyTool[]): void {
  const byName = new Map<string, AnyTool>();
  for (const tool of tools) {
    const reserved = reservedToolName(tool.name);
    const owns =
      reserved === undefined ||
      (reserved.owner === undefined ? tool.origin.kind === "mcp" : tool.origin.kind === "builtin" && reserved.owner === tool.name);
    if (!owns) {
      throw new ToolkitError(
        "TOOL_NAME_RESERVED",
        `${describeTool(tool)} cannot join a Toolkit under the name "${tool.name}": ` +
          `${reserved!.owner === undefined ? "the prefix" : `"${reserved!.owner}"`} is reserved, case-insensitively, for ` +
          `${reserved!.reason}, so the rules written for it never govern another tool. Give the tool another name.`,
      );
    }
    const key = tool.name.toLowerCase();
    const other = byName.get(key);
    if (other !== undefined && other !== tool) {
      throw new ToolkitError(
        "TOOL_NAME_COLLISION",
        `Two tools of this Toolkit are named "${other.name}"${other.name === tool.name ? "" : ` and "${tool.name}"`}: ` +
          `${describeTool(other)} and ${describeTool(tool)}. Tool names must differ (case-insensitively), or ` +
          `one would silently replace the other; rename one (registryTool(tools, id, { name }) for a registry tool).`,
      );
    }
    byName.set(key, tool);
  }
}

/** Throws when two MCP server collections of one Toolkit name the same server: their tools would share names. */
export function checkMcpServerNames(servers: readonly string[]): void {
  const seen = new Set<string>();
  for (const server of servers) {
    if (seen.has(server.toLowerCase())) {
      throw new ToolkitError(
        "TOOL_NAME_COLLISION",
        `Two MCP server collections of this Toolkit name a server "${server}": their ` +
          `tools would be named alike (mcp__${server}__…). Give the servers different names.`,
      );
    }
    seen.add(server.toLowerCase());
  }
}

function describeTool(tool: AnyTool): string {
  const { origin } = tool;
  if (origin.kind === "builtin") return `the built-in tool "${tool.name}"`;
  if (origin.kind === "registry") return `the registry tool "${origin.toolId}"`;
  if (origin.kind === "mcp") return `the tool "${origin.tool}" of MCP server "${origin.server}"`;
  return `a tool of your own (${tool.constructor.name})`;
}
