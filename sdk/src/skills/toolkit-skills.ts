import { loadSkills } from "./load-skills.js";
import { SkillCatalog } from "./skill-catalog.js";
import { SkillError } from "./skill-error.js";
import type { SkillShelf } from "./skill-viewer.js";
import { isSkillSource, type Skill, type SkillInput } from "./skill.js";

/**
 * The skills a Toolkit offers (docs/skills.md#skills-in-the-loop): its own, always, and each tool
 * group's while that group is active. Folders load when they are given, so a bad SKILL.md fails in
 * the Toolkit's constructor or `addGroup`.
 */
export class ToolkitSkills implements SkillShelf {
  private readonly basic: SkillCatalog;
  private readonly byGroup = new Map<string, SkillCatalog>();

  constructor(
    inputs: readonly SkillInput[] | undefined,
    /** The groups active now: their skills are listed, the others' are not. */
    private readonly activeGroups: () => readonly string[],
  ) {
    this.basic = new SkillCatalog(inputs);
  }

  /** A skill (folder, Skill, source) of the Toolkit's own. */
  add(input: SkillInput): void {
    if (isSkillSource(input)) {
      this.basic.add(input);
      return;
    }
    const skills = typeof input === "string" ? loadSkills(input) : [input];
    for (const skill of skills) refuseTaken(skill, [...this.byGroup.values()]);
    for (const skill of skills) this.basic.add(skill);
  }

  /** The `skills` of a tool group, offered while the group is active. */
  addGroup(group: string, inputs: readonly SkillInput[]): void {
    const catalog = new SkillCatalog(inputs);
    for (const skill of catalog.fixedSkills()) refuseTaken(skill, [this.basic, ...this.byGroup.values()]);
    this.byGroup.set(group, catalog);
  }

  list(): Skill[] {
    const active = this.activeGroups().flatMap((group) => this.byGroup.get(group)?.list() ?? []);
    const byName = new Map([...this.basic.list(), ...active].map((skill) => [skill.name, skill]));
    return [...byName.values()];
  }

  get(name: string): Skill | undefined {
    return this.list().find((skill) => skill.name === name);
  }

  /** The names of the skills a group brings (what `reset_tools` says when it activates the group). */
  namesOf(group: string): string[] {
    return (this.byGroup.get(group)?.list() ?? []).map((skill) => skill.name);
  }
}

/** Fixed skills have one name across a Toolkit and its groups: two active groups could otherwise offer two skills under one name. */
function refuseTaken(skill: Skill, catalogs: readonly SkillCatalog[]): void {
  const taken = catalogs.flatMap((catalog) => catalog.fixedSkills()).find((other) => other.name === skill.name);
  if (taken === undefined) return;
  throw new SkillError(
    "SKILL_DUPLICATE",
    skill.directory ?? skill.name,
    `a skill named "${skill.name}" is already offered by this Toolkit or one of its tool ` +
      `groups${taken.directory ? ` (from ${taken.directory})` : ""}; skill names must be unique across the Toolkit and its groups.`,
  );
}
