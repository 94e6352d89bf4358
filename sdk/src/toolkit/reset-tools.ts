import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk } from "../tool/tool-chunk.js";
import type { ToolGroup } from "./tool-group.js";

export const RESET_TOOLS_NAME = "reset_tools";

/** What `reset_tools` needs from the Toolkit: the switchable groups and a way to set the active ones. */
export interface GroupSwitchboard {
  switchableGroups(): readonly ToolGroup[];
  setActiveGroups(names: readonly string[]): void;
}

/**
 * The meta tool the Toolkit registers when it has switchable groups. Its arguments are the final
 * state: exactly the groups set to true are active afterwards. Always allowed by its own check, but
 * not read-only, so EXPLORE mode denies it (docs/design/builtin-tools.md#task-tools).
 */
export class ResetTools extends ToolBase {
  readonly name = RESET_TOOLS_NAME;
  override readonly origin = BUILTIN_ORIGIN;
  readonly description =
    "Activate or deactivate groups of tools. Set each group you need to true; every group not set to true is deactivated.";

  constructor(
    private readonly switchboard: GroupSwitchboard,
    /** The skills a group brings, named when it is activated. */
    private readonly skillsOf: (group: string) => readonly string[] = () => [],
  ) {
    super();
  }

  get inputSchema(): ToolInputSchema {
    const properties: Record<string, unknown> = {};
    for (const group of this.switchboard.switchableGroups()) {
      properties[group.name] = { type: "boolean", description: group.description, default: false };
    }
    return { type: "object", properties, additionalProperties: false };
  }

  checkPermissions(): PermissionDecision {
    return { behavior: PermissionBehavior.ALLOW, message: "Switching tool groups is always allowed." };
  }

  override call(input: Record<string, unknown>): ToolChunk {
    const groups = this.switchboard.switchableGroups();
    const known = new Set(groups.map((group) => group.name));
    const unknown = Object.keys(input).filter((name) => !known.has(name));
    const notBoolean = Object.entries(input)
      .filter(([, value]) => typeof value !== "boolean")
      .map(([name]) => name);
    if (unknown.length > 0 || notBoolean.length > 0) {
      const problems = [
        unknown.length > 0 ? `unknown groups: ${unknown.join(", ")}` : "",
        notBoolean.length > 0 ? `not true/false: ${notBoolean.join(", ")}` : "",
      ].filter(Boolean);
      return ToolChunk.error(`reset_tools: ${problems.join("; ")}. Available groups: ${[...known].join(", ")}.`);
    }
    const active = groups.filter((group) => input[group.name] === true);
    this.switchboard.setActiveGroups(active.map((group) => group.name));
    return ToolChunk.text(describeActivation(active, this.skillsOf));
  }
}

function describeActivation(active: readonly ToolGroup[], skillsOf: (group: string) => readonly string[]): string {
  if (active.length === 0) return "All tool groups are now deactivated; only the basic tools remain.";
  const instructions = active
    .filter((group) => group.instructions)
    .map((group) => `<group name="${group.name}">\n${group.instructions}\n</group>`);
  const lines = [`Activated tool groups: ${active.map((group) => group.name).join(", ")}.`];
  if (instructions.length > 0) lines.push("<tool-instructions>", ...instructions, "</tool-instructions>");
  const skills = active.flatMap((group) => skillsOf(group.name));
  if (skills.length > 0) lines.push(`Skills now available through the Skill tool: ${skills.join(", ")}.`);
  return lines.join("\n");
}
