import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolInputSchema } from "../tool/tool-base.js";
import { ToolChunk, ToolResultState } from "../tool/tool-chunk.js";
import type { Skill } from "./skill.js";

export const SKILL_VIEWER_NAME = "Skill";

/** Where the viewer finds skills: a `SkillCatalog`, or a Toolkit's skills (its own and its active groups'). */
export interface SkillShelf {
  list(): Skill[];
  get(name: string): Skill | undefined;
}

/**
 * The meta tool a Toolkit registers whenever it has skills: its description lists every skill, and a
 * call loads one: returns its Markdown (plus where its resource files are) and tells `onLoad`, which
 * a Toolkit uses to make the skill's folder readable (docs/skills.md#skills-in-the-loop). Read-only
 * and always allowed, EXPLORE mode included: it only shows text the agent's developer installed.
 */
export class SkillViewer extends ToolBase {
  readonly name = SKILL_VIEWER_NAME;
  override readonly origin = BUILTIN_ORIGIN;
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: { skill: { type: "string", description: 'The name of the skill to load, e.g. "pdf-forms".' } },
    required: ["skill"],
    additionalProperties: false,
  };
  override isReadOnly = true;
  override isConcurrencySafe = true;

  constructor(
    private readonly catalog: SkillShelf,
    private readonly onLoad: (skill: Skill) => void = () => {},
  ) {
    super();
  }

  get description(): string {
    const lines = this.catalog.list().map((skill) => `- ${skill.name}: ${skill.description}`);
    return [
      "Load a skill: instructions (and resource files) for a specialised task. When a task matches a skill " +
        "below, call this tool with the skill's name before starting, then follow the instructions it returns.",
      "",
      "Available skills:",
      ...lines,
    ].join("\n");
  }

  checkPermissions(): PermissionDecision {
    return { behavior: PermissionBehavior.ALLOW, message: "Viewing a skill is always allowed." };
  }

  override call(input: { skill?: unknown }): ToolChunk {
    const name = String(input.skill);
    const skill = this.catalog.get(name);
    if (skill === undefined) return ToolChunk.error(`SkillNotFoundError: Skill '${name}' not found.`);
    return this.load(skill);
  }

  /** Loads `skill` (one the shelf offers): `onLoad` hears of it, and the agent gets its instructions. */
  load(skill: Skill): ToolChunk {
    this.onLoad(skill);
    return new ToolChunk({
      content: [{ type: "text", text: renderSkill(skill) }],
      state: ToolResultState.SUCCESS,
      metadata: { skill: skill.name, directory: skill.directory },
    });
  }
}

/** The Markdown, then where the resources it mentions are, so the agent can read them with its file tools. */
function renderSkill(skill: Skill): string {
  if (skill.directory === undefined) return skill.markdown;
  const resources = skill.resources.length === 0 ? [] : ["Resources:", ...skill.resources.map((path) => `- ${path}`)];
  return [skill.markdown.trimEnd(), "", `Base directory for this skill: ${skill.directory}`, ...resources].join("\n");
}
