import type { ToolRecord } from "../registry-client/tool-record.js";
import type { ToolRuntime } from "../runtimes/tool-runtime.js";
import { loadSkill } from "./load-skills.js";
import type { Skill } from "./skill.js";

/** A registry entry whose spec says `tool_type: "skill"`: its `tool.zip` holds the skill folder as `code/`. */
export function isSkillRecord(record: ToolRecord): boolean {
  return record.tool_type === "skill";
}

/**
 * What `AgentTools.add` keeps for a skill instead of a running process: the loaded skill. Executing
 * it returns its Markdown (reading the instructions is all a skill does); it has no commands.
 */
export class SkillRuntime implements ToolRuntime {
  readonly kind = "skill";

  constructor(readonly skill: Skill) {}

  static load(codeDir: string): SkillRuntime {
    return new SkillRuntime(loadSkill(codeDir));
  }

  async execute(): Promise<unknown> {
    return this.skill.markdown;
  }

  async executeCommand(command: string): Promise<unknown> {
    return {
      success: false,
      message:
        `"${this.skill.name}" is a skill, which has no commands (asked for ` +
        `"${command}"); offer it to the LLM with new Toolkit({ skills: [agentTools] }).`,
    };
  }

  async close(): Promise<void> {}
}
