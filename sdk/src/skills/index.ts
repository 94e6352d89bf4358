export * from "./skill.js";
export * from "./skill-error.js";
export * from "./skill-manifest.js";
export * from "./load-skills.js";
export * from "./skill-catalog.js";
export * from "./skill-viewer.js";
export { SkillRuntime, isSkillRecord } from "./skill-runtime.js";
