import type { ToolOrigin } from "../permission/permission-subject.js";
import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import { isSkillRecord } from "../skills/skill-runtime.js";
import { ToolError } from "../tool/errors.js";
import { ToolBase, type ToolBaseOptions, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk } from "../tool/tool-chunk.js";
import { toolNameFromId } from "../tool-spec/tool-name.js";
import { describeRecord, inputSchemaOf, outputSchemaOf, registryClaimsReadOnly } from "./registry-tool-record.js";
import type { RegistryToolSource } from "./registry-tool-source.js";

export interface RegistryToolOptions extends ToolBaseOptions {
  /** Overrides the name derived from the tool id. */
  name?: string;
  /**
   * Believe the registry entry's read-only claim (`tool_metadata.read_only`), which lets the engine
   * auto-allow every call in every mode, EXPLORE included. Off by default: the claim is the
   * author's, and the code is third-party.
   */
  trustRegistryReadOnly?: boolean;
  /** Default false: one tool's worker handles one call at a time anyway. */
  isConcurrencySafe?: boolean;
}

/**
 * A tool added through `AgentTools`, as a ToolBase: governed by the engine like any other tool. Its
 * own check is a plain ASK (third-party code), so an allow rule or BYPASS lets it run, DONT_ASK and
 * EXPLORE refuse it, and deny and ask rules apply as usual.
 */
export class RegistryTool extends ToolBase {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  readonly toolId: string;
  override readonly origin: ToolOrigin;

  constructor(
    private readonly source: RegistryToolSource,
    toolId: string,
    options: RegistryToolOptions = {},
  ) {
    super(options);
    const added = source.getTool(toolId);
    if (!added) {
      throw new ToolError(
        "REGISTRY_TOOL_NOT_ADDED",
        `Tool "${toolId}" has not been added: call agentTools.add("${toolId}") before wrapping it as a tool.`,
      );
    }
    if (isSkillRecord(added.record)) {
      throw new ToolError(
        "REGISTRY_TOOL_IS_SKILL",
        `"${toolId}" is a skill (instructions, nothing to run), not a callable tool: offer it with new ` +
          `Toolkit({ skills: [agentTools] }), or load it with toolkit.loadSkill(agentTools.getSkill("${toolId}")).`,
      );
    }
    this.toolId = toolId;
    this.origin = { kind: "registry", toolId };
    this.name = options.name ?? toolNameFromId(toolId);
    this.description = describeRecord(added.record);
    this.inputSchema = inputSchemaOf(added.record);
    this.outputSchema = outputSchemaOf(added.record);
    this.isReadOnly = (options.trustRegistryReadOnly ?? false) && registryClaimsReadOnly(added.record);
    this.isConcurrencySafe = options.isConcurrencySafe ?? false;
  }

  checkPermissions(): PermissionDecision {
    return {
      behavior: PermissionBehavior.ASK,
      message: `Registry tool "${this.toolId}" runs third-party code and must be explicitly allowed by the user.`,
    };
  }

  override async call(input: Record<string, unknown>): Promise<ToolChunk> {
    const output = await this.source.executeToolById(this.toolId, input);
    const text = typeof output === "string" ? output : JSON.stringify(output ?? null);
    // An object result is also kept as structured content, as an MCP tool's is (docs/mcp.md).
    const structured = output !== null && typeof output === "object" && !Array.isArray(output) ? { structuredContent: output } : {};
    return ToolChunk.text(text, { metadata: { toolId: this.toolId, ...structured } });
  }
}

/** One added tool as a ToolBase. */
export function registryTool(source: RegistryToolSource, toolId: string, options: RegistryToolOptions = {}): RegistryTool {
  return new RegistryTool(source, toolId, options);
}

/** Every tool added so far, as ToolBases (same options for all); skills are left to the Skill viewer. */
export function registryTools(
  source: RegistryToolSource & Required<Pick<RegistryToolSource, "list">>,
  options: Omit<RegistryToolOptions, "name"> = {},
): RegistryTool[] {
  return source
    .list()
    .filter((added) => !isSkillRecord(added.record))
    .map((added) => new RegistryTool(source, added.toolId, options));
}
