// `@agent-tools/sdk/skills`: skills (instructions and resources) for an agent (docs/skills.md).
export type { Skill, SkillInput, SkillSource } from "./skill.js";
export { SkillError } from "./skill-error.js";
export { parseSkillManifest, SKILL_FILE, SKILL_LIMITS, type SkillManifest } from "./skill-manifest.js";
export { loadSkill, loadSkills } from "./load-skills.js";
export { SkillCatalog } from "./skill-catalog.js";
export { SKILL_VIEWER_NAME, SkillViewer, type SkillShelf } from "./skill-viewer.js";
export type { SkillErrorCode } from "../error-codes.js";
