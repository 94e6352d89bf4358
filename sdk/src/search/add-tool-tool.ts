import { PermissionBehavior, type PermissionDecision, type PermissionRule } from "../permission/types.js";
import { RegistryTool, type RegistryToolOptions } from "../registry-tool/registry-tool.js";
import type { RegistryToolSource } from "../registry-tool/registry-tool-source.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk } from "../tool/tool-chunk.js";

/** What `AddTool` needs: `AgentTools` (download, verify and start a tool) and where to register it. */
export interface AddToolHost {
  tools: RegistryToolSource & { add(toolId: string): Promise<unknown> };
  toolkit: { registerTool(tool: ToolBase<any>): void; getTool(name: string): ToolBase<any> | undefined };
}

/**
 * `AddTool`: makes a registry tool (found with `SearchTools`) callable in the same Toolkit. Adding
 * downloads third-party code, so it is governed by the permission engine like any other call: it
 * asks unless a rule allows it (`AddTool(text-stats)` for one tool, `AddTool(pdf-*)` for a prefix,
 * `AddTool` for all); and the added tool is then a `RegistryTool`, whose every call is governed too.
 */
export class AddToolTool extends ToolBase<{ tool_id: string }> {
  readonly name = "AddTool";
  override readonly origin = BUILTIN_ORIGIN;
  readonly description =
    "Make a registry tool callable: give the tool_id from a SearchTools result. Afterwards the tool is offered like any other tool, under the name this call returns.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: { tool_id: { type: "string", minLength: 1, maxLength: 128, description: "The tool_id of a SearchTools result." } },
    required: ["tool_id"],
    additionalProperties: false,
  };

  constructor(
    private readonly host: AddToolHost,
    private readonly toolOptions: Omit<RegistryToolOptions, "name"> = {},
  ) {
    super();
  }

  checkPermissions(input: { tool_id: string }): PermissionDecision {
    return {
      behavior: PermissionBehavior.ASK,
      message: `Adding registry tool "${input.tool_id}" downloads and prepares third-party code.`,
    };
  }

  /** `AddTool(<tool id>)` names one tool; a trailing `*` names every id with that prefix. */
  override matchRule(ruleContent: string | undefined, input: { tool_id: string }): boolean {
    if (!ruleContent) return true;
    return ruleContent.endsWith("*") ? input.tool_id.startsWith(ruleContent.slice(0, -1)) : input.tool_id === ruleContent;
  }

  override generateSuggestions(input: { tool_id: string }): PermissionRule[] {
    return [{ toolName: this.name, ruleContent: input.tool_id, behavior: PermissionBehavior.ALLOW, source: "suggested" }];
  }

  override async call(input: { tool_id: string }): Promise<ToolChunk> {
    const toolId = input.tool_id.trim();
    await this.host.tools.add(toolId);
    const tool = new RegistryTool(this.host.tools, toolId, this.toolOptions);
    const existing = this.host.toolkit.getTool(tool.name);
    if (existing === undefined) this.host.toolkit.registerTool(tool);
    else if (!(existing instanceof RegistryTool && existing.toolId === toolId)) {
      return ToolChunk.error(`A different tool is already called "${tool.name}"; "${toolId}" was added to AgentTools but not registered.`);
    }
    return ToolChunk.text(JSON.stringify({ added: toolId, name: tool.name, input_schema: tool.inputSchema }), {
      metadata: { toolId, name: tool.name },
    });
  }
}
