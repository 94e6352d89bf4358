import { parseDocument } from "yaml";
import { SkillError } from "./skill-error.js";
import type { SkillErrorCode } from "../error-codes.js";

export { SkillError };

/** The file that makes a folder a skill (the Agent Skills format). */
export const SKILL_FILE = "SKILL.md";

/** Bounds that keep one skill from flooding an LLM's context or a registry entry. */
export const SKILL_LIMITS = {
  /** SKILL.md as a whole; the Skill viewer returns it in one tool result. */
  maxSkillFileBytes: 256 * 1024,
  maxFrontMatterBytes: 16 * 1024,
  maxNameLength: 64,
  /** Every skill's description is listed in the Skill viewer's own description. */
  maxDescriptionLength: 1024,
  /** A registry skill's whole folder, unpacked (checked on upload): skills are text and small scripts. */
  maxSkillFolderBytes: 32 * 1024 * 1024,
  maxSkillFolderFiles: 1000,
} as const;

/** Lowercase words joined by single hyphens, as the Agent Skills format requires. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** What SKILL.md says about its skill. */
export interface SkillManifest {
  name: string;
  description: string;
  /** The Markdown after the front matter: what the Skill viewer returns. */
  body: string;
  /** Every front-matter field (`license`, `allowed-tools`, `metadata`, …), `name` and `description` included. */
  frontMatter: Record<string, unknown>;
}

/**
 * Reads SKILL.md: YAML front matter between `---` lines with a `name` (lowercase letters, digits and
 * single hyphens, at most 64) and a `description` (at most 1024 characters), then Markdown. YAML is
 * parsed strictly (duplicate keys, tabs and other errors reject the file; aliases are capped).
 * Throws SkillError naming `where` and what to fix.
 */
export function parseSkillManifest(text: string, where: string): SkillManifest {
  const fail: (code: SkillErrorCode, problem: string, cause?: unknown) => never = (code, problem, cause) => {
    throw new SkillError(code, where, problem, { cause });
  };
  if (Buffer.byteLength(text) > SKILL_LIMITS.maxSkillFileBytes) {
    fail(
      "SKILL_TOO_LARGE",
      `${SKILL_FILE} is larger than ${SKILL_LIMITS.maxSkillFileBytes} bytes; move ` +
        `details into resource files next to it and reference them from ${SKILL_FILE}.`,
    );
  }
  const source = text.replace(/^\uFEFF/, "");
  const match = FRONT_MATTER.exec(source);
  if (match === null) {
    return fail(
      "SKILL_FRONT_MATTER_MISSING",
      `${SKILL_FILE} must start with YAML front matter: a line "---", then "name: ` +
        `my-skill" and "description: what it does and when to use it", then a line "---".`,
    );
  }
  const [whole, yamlText = ""] = match;
  if (Buffer.byteLength(yamlText) > SKILL_LIMITS.maxFrontMatterBytes) {
    fail(
      "SKILL_FRONT_MATTER_TOO_LARGE",
      `the front matter is larger than ${SKILL_LIMITS.maxFrontMatterBytes} bytes; keep it to name, description and a few short fields.`,
    );
  }
  // Warnings (e.g. an unresolved tag) reject too: a skill's manifest should mean exactly what it says.
  const document = parseDocument(yamlText, { strict: true, uniqueKeys: true, logLevel: "silent" });
  const [problem] = [...document.errors, ...document.warnings];
  if (problem !== undefined)
    fail("SKILL_FRONT_MATTER_INVALID", `the front matter is not valid YAML: ${problem.message.split("\n")[0]}`, problem);
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 16 });
  } catch (error) {
    fail("SKILL_FRONT_MATTER_INVALID", `the front matter is not valid YAML: ${(error as Error).message}`, error);
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return fail("SKILL_FRONT_MATTER_INVALID", "the front matter must be a YAML mapping with `name` and `description` fields.");
  }
  const frontMatter = data as Record<string, unknown>;
  const name = frontMatter.name;
  if (typeof name !== "string" || name === "") return fail("SKILL_NAME_INVALID", "the front matter needs `name: my-skill` (a string).");
  if (name.length > SKILL_LIMITS.maxNameLength || !SKILL_NAME.test(name)) {
    fail(
      "SKILL_NAME_INVALID",
      `skill name ${JSON.stringify(name)} must be at most ${SKILL_LIMITS.maxNameLength} ` +
        `lowercase letters, digits and single hyphens, e.g. "pdf-forms".`,
    );
  }
  const description = frontMatter.description;
  if (typeof description !== "string" || description.trim() === "") {
    return fail(
      "SKILL_DESCRIPTION_INVALID",
      "the front matter needs `description:` (a non-empty string saying what the skill does and when to use it).",
    );
  }
  if (description.length > SKILL_LIMITS.maxDescriptionLength) {
    fail(
      "SKILL_DESCRIPTION_INVALID",
      `the description has ${description.length} characters; at most ` +
        `${SKILL_LIMITS.maxDescriptionLength} are allowed. Move details into the body of ${SKILL_FILE}.`,
    );
  }
  return { name, description: description.trim(), body: source.slice(whole.length).replace(/^\s*\n/, ""), frontMatter };
}
