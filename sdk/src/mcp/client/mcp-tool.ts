import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOrigin } from "../../permission/permission-subject.js";
import { PermissionBehavior, type PermissionDecision } from "../../permission/types.js";
import { ToolBase, type ToolCallContext, type ToolInputSchema } from "../../tool/tool-base.js";
import type { ToolChunk } from "../../tool/tool-chunk.js";
import { mcpToolName } from "../tool-names.js";
import { toToolChunk } from "./call-result.js";

/** What an McpTool needs from its server connection. */
export interface McpToolCaller {
  readonly server: string;
  callTool(tool: string, input: Record<string, unknown>, signal: AbortSignal | undefined): Promise<CallToolResult>;
}

/**
 * One tool of an MCP server as a ToolBase named `mcp__{server}__{tool}`. Its own check is a plain
 * ASK (the server is third-party code), so allow rules on the tool or the whole server
 * (`mcp__files`) let it run. It is read-only only when the server says so AND the server's config
 * sets `trustReadOnlyHint`.
 */
export class McpTool extends ToolBase {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  /** The tool's name on its server (before name mangling). */
  readonly mcpToolName: string;
  override isMcp = true;
  override mcpName: string;
  override readonly origin: ToolOrigin;

  constructor(
    private readonly caller: McpToolCaller,
    definition: Tool,
    trustReadOnlyHint: boolean,
  ) {
    super();
    this.mcpName = caller.server;
    this.mcpToolName = definition.name;
    this.origin = { kind: "mcp", server: caller.server, tool: definition.name };
    this.name = mcpToolName(caller.server, definition.name);
    this.description = definition.description ?? definition.title ?? `Tool "${definition.name}" of MCP server "${caller.server}".`;
    this.inputSchema = { ...definition.inputSchema, type: "object", properties: definition.inputSchema.properties ?? {} };
    this.isReadOnly = trustReadOnlyHint && definition.annotations?.readOnlyHint === true;
  }

  checkPermissions(): PermissionDecision {
    return {
      behavior: PermissionBehavior.ASK,
      message: `MCP tool "${this.mcpToolName}" of server "${this.mcpName}" must be explicitly allowed by the user (rule ${this.name}, or mcp__${this.mcpName} for the whole server).`,
    };
  }

  override async call(input: Record<string, unknown>, context: ToolCallContext): Promise<ToolChunk> {
    const result = await this.caller.callTool(this.mcpToolName, input, context.signal);
    return toToolChunk(result, { mcpServer: this.mcpName, mcpTool: this.mcpToolName });
  }
}
