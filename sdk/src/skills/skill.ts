/** A skill: instructions (and optional resource files) an agent loads on demand through the `Skill` tool. */
export interface Skill {
  name: string;
  /** Shown to the LLM in the Skill tool's description: what the skill does and when to use it. */
  description: string;
  /** SKILL.md's Markdown after the front matter. */
  markdown: string;
  /** The skill's folder (resource paths are relative to it); undefined for a skill defined in code. */
  directory: string | undefined;
  /** Files beside SKILL.md, relative to `directory`, e.g. `scripts/fill.py`. */
  resources: string[];
  /** All of SKILL.md's front matter. */
  frontMatter: Record<string, unknown>;
}

/** Skills that can change over time, asked each time the Toolkit lists its tools (e.g. `AgentTools`, which registers registry skills). */
export interface SkillSource {
  skills(): readonly Skill[];
}

/** What `Toolkit({ skills })` takes: a skill folder or a folder of skill folders, a Skill, or a source. */
export type SkillInput = string | Skill | SkillSource;

export function isSkillSource(input: SkillInput): input is SkillSource {
  return typeof input === "object" && typeof (input as Partial<SkillSource>).skills === "function";
}
