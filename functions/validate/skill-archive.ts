import type { ToolArchive } from "@agent-tools/sdk/archive";
import { SKILL_FILE, SKILL_LIMITS, SkillError, parseSkillManifest } from "@agent-tools/sdk/skill-manifest";
import { HttpProblem } from "../http-problem.js";
import { PROCESSING_FAILED } from "./archive-rejection.js";

const SKILL_PATH = `code/${SKILL_FILE}`;
const OVER_LIMIT = new Set(["SKILL_TOO_LARGE", "SKILL_FRONT_MATTER_TOO_LARGE"]);

/** `tool_type` that marks a bundle as a skill: `tool.zip` holds the skill folder as `code/`. */
export const SKILL_TOOL_TYPE = "skill";

/**
 * A skill bundle's tool.zip, past the archive guards: `code/SKILL.md` with valid front matter
 * (name, description) within the skill limits, and a folder no bigger than a skill needs.
 * 422 for a bad SKILL.md, 413 over a limit.
 */
export function checkSkillArchive(archive: ToolArchive): void {
  const files = archive.entries.filter((entry) => entry.type === "file");
  const total = files.reduce((sum, entry) => sum + entry.data.byteLength, 0);
  if (files.length > SKILL_LIMITS.maxSkillFolderFiles || total > SKILL_LIMITS.maxSkillFolderBytes) {
    throw new HttpProblem(
      413,
      PROCESSING_FAILED,
      `tool.zip: a skill may hold at most ${SKILL_LIMITS.maxSkillFolderFiles} files and ${SKILL_LIMITS.maxSkillFolderBytes} ` +
        `bytes, but this one holds ${files.length} files and ${total} bytes. Keep large data out of skills.`,
    );
  }
  const manifest = files.find((entry) => entry.path === SKILL_PATH);
  if (manifest === undefined) {
    throw new HttpProblem(
      422,
      PROCESSING_FAILED,
      `tool.zip: a skill (tool_type "skill") needs ${SKILL_PATH}, but the archive holds ${
        files
          .slice(0, 5)
          .map((entry) => entry.path)
          .join(", ") || "no files"
      }. Put the skill folder's files in code/ and pack again.`,
      {},
      "INVALID_ARCHIVE",
    );
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(manifest.data);
  } catch {
    throw new HttpProblem(422, PROCESSING_FAILED, `tool.zip: ${SKILL_PATH} is not UTF-8 text; save it as UTF-8.`, {}, "INVALID_ARCHIVE");
  }
  try {
    parseSkillManifest(text, `tool.zip ${SKILL_PATH}`);
  } catch (error) {
    if (!(error instanceof SkillError)) throw error;
    throw OVER_LIMIT.has(error.code)
      ? new HttpProblem(413, PROCESSING_FAILED, error.message)
      : new HttpProblem(422, PROCESSING_FAILED, error.message, {}, "INVALID_ARCHIVE");
  }
}
