import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { findBeneath, readFileBeneath } from "../tool-files.js";
import type { Skill } from "./skill.js";
import { SkillError } from "./skill-error.js";
import { SKILL_FILE, SKILL_LIMITS, parseSkillManifest } from "./skill-manifest.js";

/** Listed resources per skill, and how deep the listing looks: enough to point the agent at them, bounded for huge folders. */
const MAX_LISTED_RESOURCES = 100;
const MAX_RESOURCE_DEPTH = 6;

/**
 * One skill folder: SKILL.md (checked by `parseSkillManifest`) and the files beside it as resources.
 * Synchronous so a Toolkit can load its skills in its constructor and fail there, before any LLM call.
 */
export function loadSkill(directory: string): Skill {
  const dir = resolve(directory);
  const file = join(dir, SKILL_FILE);
  // Read beneath the skill's folder: a SKILL.md linked elsewhere (a skill tool's unpacked tree) is refused.
  const info = findBeneath(dir, SKILL_FILE);
  if (info === undefined || info.kind !== "file") {
    throw new SkillError(
      "SKILL_FILE_MISSING",
      dir,
      `a skill folder needs a ${SKILL_FILE} file (YAML front matter with name and description, then Markdown instructions).`,
    );
  }
  if (info.size > SKILL_LIMITS.maxSkillFileBytes) {
    throw new SkillError(
      "SKILL_TOO_LARGE",
      file,
      `${SKILL_FILE} is ${info.size} bytes; at most ${SKILL_LIMITS.maxSkillFileBytes} ` +
        `are allowed. Move details into resource files and reference them.`,
    );
  }
  const manifest = parseSkillManifest(
    decodeUtf8(readFileBeneath(dir, SKILL_FILE, SKILL_LIMITS.maxSkillFileBytes) ?? new Uint8Array(), file),
    file,
  );
  return {
    name: manifest.name,
    description: manifest.description,
    markdown: manifest.body,
    directory: dir,
    resources: listResources(dir),
    frontMatter: manifest.frontMatter,
  };
}

/** A skill folder (holding SKILL.md), or a folder whose subfolders are skills (those without SKILL.md are ignored). */
export function loadSkills(path: string): Skill[] {
  const dir = resolve(path);
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new SkillError(
      "SKILL_FOLDER_MISSING",
      dir,
      `no such folder; pass a skill folder (holding ${SKILL_FILE}) or a folder of skill folders.`,
    );
  }
  if (existsSync(join(dir, SKILL_FILE))) return [loadSkill(dir)];
  const skillDirs = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, SKILL_FILE)))
    .map((entry) => join(dir, entry.name))
    .sort();
  if (skillDirs.length === 0) {
    throw new SkillError(
      "SKILL_FILE_MISSING",
      dir,
      `neither this folder nor any folder in it holds a ${SKILL_FILE}; a skill is a folder with ${SKILL_FILE} in it.`,
    );
  }
  return skillDirs.map(loadSkill);
}

function decodeUtf8(bytes: Uint8Array, where: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    throw new SkillError("SKILL_NOT_UTF8", where, `${SKILL_FILE} is not UTF-8 text; save it as UTF-8.`, { cause: error });
  }
}

/** Regular files under `dir` except SKILL.md, sorted, capped; directory entries never follow links. */
function listResources(dir: string): string[] {
  const found: string[] = [];
  const walk = (folder: string, depth: number): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= MAX_LISTED_RESOURCES) return;
      const path = join(folder, entry.name);
      if (entry.isDirectory() && depth < MAX_RESOURCE_DEPTH) walk(path, depth + 1);
      else if (entry.isFile() && !(folder === dir && entry.name === SKILL_FILE)) found.push(relative(dir, path));
    }
  };
  walk(dir, 0);
  return found;
}
