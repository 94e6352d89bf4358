import type { SkillInput } from "../skills/skill.js";
import type { ToolBase } from "../tool/tool-base.js";
import { ToolkitError } from "./errors.js";

/** The group holding the Toolkit's constructor tools; always active. */
export const BASIC_GROUP = "basic";

/** Tools the agent can switch on and off with the `reset_tools` meta tool. */
export interface ToolGroup {
  name: string;
  /** Shown to the LLM as the meaning of this group's `reset_tools` switch. */
  description: string;
  tools: ToolBase<any>[];
  /** Returned by `reset_tools` when the group is activated: how to use its tools. */
  instructions?: string;
  /** Active from the start (default false). */
  active?: boolean;
  /**
   * Skills (folders, Skill objects, sources) offered by the `Skill` tool while the group is active:
   * they load with the group (docs/skills.md#skills-on-a-tool-group).
   */
  skills?: SkillInput[];
}

export function checkGroups(groups: readonly ToolGroup[]): void {
  const seen = new Set<string>();
  for (const group of groups) {
    if (group.name === BASIC_GROUP) {
      throw new ToolkitError(
        "TOOL_GROUP_RESERVED",
        `A tool group cannot be named "${BASIC_GROUP}": that group holds the Toolkit's own tools. Rename it.`,
      );
    }
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(group.name)) {
      throw new ToolkitError(
        "TOOL_GROUP_NAME",
        `Tool group name ${JSON.stringify(group.name)} must be 1-64 letters, digits, _ or -, since it becomes a reset_tools parameter.`,
      );
    }
    if (seen.has(group.name)) {
      throw new ToolkitError("TOOL_GROUP_DUPLICATE", `Two tool groups are named "${group.name}"; group names must be unique.`);
    }
    seen.add(group.name);
  }
}
