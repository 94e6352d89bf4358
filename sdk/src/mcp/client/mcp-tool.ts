import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolOrigin } from "../../permission/permission-subject.js";
import { PermissionBehavior, type PermissionDecision } from "../../permission/types.js";
import { ToolBase, type ToolCallContext, type ToolInputSchema } from "../../tool/tool-base.js";
import type { ToolChunk } from "../../tool/tool-chunk.js";
import { mcpToolName } from "../tool-names.js";
import { toToolChunk } from "./call-result.js";
import type { McpDefinitionChange } from "./mcp-pins.js";

/** What an McpTool needs from its server connection. */
export interface McpToolCaller {
  readonly server: string;
  callTool(tool: string, input: Record<string, unknown>, signal: AbortSignal | undefined): Promise<CallToolResult>;
  /** The user accepted the tool's changed definition: it becomes the pinned one. */
  approveDefinition(tool: string, change: McpDefinitionChange): Promise<void>;
}

/** How the server's config and pins shape one tool. */
export interface McpToolOptions {
  trustReadOnlyHint: boolean;
  /** Set when the listed definition is not the approved one (docs/mcp.md#pinned-definitions). */
  change?: McpDefinitionChange | undefined;
}

/**
 * One tool of an MCP server as a ToolBase named `mcp__{server}__{tool}`. Its own check is a plain
 * ASK (the server is third-party code), so allow rules on the tool or the whole server
 * (`mcp__files`) let it run. It is read-only only when the server says so AND the server's config
 * sets `trustReadOnlyHint`. A tool whose definition changed since it was approved asks before
 * every call, in every mode, showing what changed; once a call is allowed, the new definition is
 * the approved one (docs/mcp.md#pinned-definitions).
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
  /** The change from the approved definition, until a call of it is allowed. */
  definitionChange: McpDefinitionChange | undefined;
  /** The server says it only reads, and its config trusts that. */
  private readonly trustedReadOnly: boolean;

  constructor(
    private readonly caller: McpToolCaller,
    definition: Tool,
    options: McpToolOptions,
  ) {
    super();
    this.mcpName = caller.server;
    this.mcpToolName = definition.name;
    this.origin = { kind: "mcp", server: caller.server, tool: definition.name };
    this.name = mcpToolName(caller.server, definition.name);
    this.description = definition.description ?? definition.title ?? `Tool "${definition.name}" of MCP server "${caller.server}".`;
    this.inputSchema = { ...definition.inputSchema, type: "object", properties: definition.inputSchema.properties ?? {} };
    this.definitionChange = options.change;
    this.trustedReadOnly = options.trustReadOnlyHint && definition.annotations?.readOnlyHint === true;
    // A changed definition's read-only claim is part of what awaits approval.
    this.isReadOnly = this.trustedReadOnly && options.change === undefined;
  }

  checkPermissions(): PermissionDecision {
    const change = this.definitionChange;
    if (change !== undefined)
      return {
        behavior: PermissionBehavior.ASK,
        alwaysAsk: true,
        message:
          `MCP tool "${this.mcpToolName}" of server "${this.mcpName}" changed since it was ` +
          `approved:\n${change.changes.join("\n")}\nAllowing this call approves the new definition.`,
      };
    return {
      behavior: PermissionBehavior.ASK,
      message:
        `MCP tool "${this.mcpToolName}" of server "${this.mcpName}" must be explicitly ` +
        `allowed by the user (rule ${this.name}, or mcp__${this.mcpName} for the whole server).`,
    };
  }

  override async call(input: Record<string, unknown>, context: ToolCallContext): Promise<ToolChunk> {
    // Reached only once the engine (or the user it asked) allowed this call of the changed tool.
    const change = this.definitionChange;
    if (change !== undefined) {
      await this.caller.approveDefinition(this.mcpToolName, change);
      this.definitionChange = undefined;
      this.isReadOnly = this.trustedReadOnly;
    }
    const result = await this.caller.callTool(this.mcpToolName, input, context.signal);
    return toToolChunk(result, { mcpServer: this.mcpName, mcpTool: this.mcpToolName });
  }
}
