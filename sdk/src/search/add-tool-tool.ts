import { PermissionBehavior, type PermissionDecision, type PermissionRule } from "../permission/types.js";
import { RegistryTool, type RegistryToolOptions } from "../registry-tool/registry-tool.js";
import type { RegistryToolSource } from "../registry-tool/registry-tool-source.js";
import { SkillError } from "../skills/skill-error.js";
import type { Skill } from "../skills/skill.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk } from "../tool/tool-chunk.js";

/** What `AddTool` needs: `AgentTools` (download, verify and start a tool, or register a skill) and the Toolkit to add it to. */
export interface AddToolHost {
  tools: RegistryToolSource & { add(toolId: string): Promise<unknown>; getSkill(toolId: string): Skill | undefined };
  toolkit: {
    registerTool(tool: ToolBase<any>): void;
    getTool(name: string): ToolBase<any> | undefined;
    /** Offers and loads a skill as the `Skill` tool does (`Toolkit.loadSkill`). */
    loadSkill(skill: Skill): ToolChunk;
  };
}

/**
 * `AddTool`: makes a registry tool (found with `SearchTools`) callable in the same Toolkit. Adding
 * downloads third-party code, so it is governed by the permission engine like any other call: it
 * asks unless a rule allows it (`AddTool(text-stats)` for one tool, `AddTool(pdf-*)` for a prefix,
 * `AddTool` for all); and the added tool is then a `RegistryTool`, whose every call is governed too.
 * A skill (`tool_type: "skill"`) is never a callable tool: it is loaded as the `Skill` tool loads one
 * (docs/skills.md#skills-in-the-loop), and the call returns its instructions.
 */
export class AddToolTool extends ToolBase<{ tool_id: string }> {
  readonly name = "AddTool";
  override readonly origin = BUILTIN_ORIGIN;
  readonly description =
    "Make a registry tool callable, or load a registry skill: give the tool_id from a SearchTools " +
    "result. A tool is then offered like any other tool, under the name this call returns; " +
    "a skill's instructions are returned at once (and it stays listed in the Skill tool).";
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
    const skill = this.host.tools.getSkill(toolId);
    if (skill !== undefined) return this.loadSkill(toolId, skill);
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

  private loadSkill(toolId: string, skill: Skill): ToolChunk {
    try {
      const loaded = this.host.toolkit.loadSkill(skill);
      return new ToolChunk({ content: loaded.content, state: loaded.state, metadata: { ...loaded.metadata, toolId } });
    } catch (error) {
      if (!(error instanceof SkillError && error.code === "SKILL_DUPLICATE")) throw error;
      return ToolChunk.error(
        `"${toolId}" is a skill named "${skill.name}", and this Toolkit already offers ` +
          `another skill by that name; "${toolId}" was added to AgentTools but not loaded.`,
      );
    }
  }
}
