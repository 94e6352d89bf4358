import { loadSkills } from "./load-skills.js";
import { isSkillSource, type Skill, type SkillInput, type SkillSource } from "./skill.js";
import { SkillError } from "./skill-error.js";

/**
 * The skills a Toolkit offers: folders are loaded once (bad SKILL.md files throw here), Skill objects
 * are kept as given, and sources are asked on every `list()`. Two fixed skills with one name are an
 * error; a source's skill may replace a fixed one (later wins, as tools do).
 */
export class SkillCatalog {
  private readonly fixed = new Map<string, Skill>();
  private readonly sources: SkillSource[] = [];

  constructor(inputs: readonly SkillInput[] = []) {
    for (const input of inputs) this.add(input);
  }

  add(input: SkillInput): void {
    if (isSkillSource(input)) {
      this.sources.push(input);
      return;
    }
    for (const skill of typeof input === "string" ? loadSkills(input) : [input]) {
      const known = this.fixed.get(skill.name);
      if (known !== undefined) {
        throw new SkillError(
          "SKILL_DUPLICATE",
          skill.directory ?? skill.name,
          `a skill named "${skill.name}" is already ` +
            `registered${known.directory ? ` from ${known.directory}` : ""}; skill names must be unique.`,
        );
      }
      this.fixed.set(skill.name, skill);
    }
  }

  /** The skills given as folders or objects, without the sources'. */
  fixedSkills(): Skill[] {
    return [...this.fixed.values()];
  }

  list(): Skill[] {
    const byName = new Map(this.fixed);
    for (const source of this.sources) for (const skill of source.skills()) byName.set(skill.name, skill);
    return [...byName.values()];
  }

  get(name: string): Skill | undefined {
    return this.list().find((skill) => skill.name === name);
  }
}
