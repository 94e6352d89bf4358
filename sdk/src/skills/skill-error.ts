import type { SkillErrorCode } from "../error-codes.js";
import { AgentToolsError } from "../errors.js";

/** A skill that cannot be loaded: no SKILL.md, bad front matter, a name clash, a size limit. `where` names the file or folder. */
export class SkillError extends AgentToolsError<SkillErrorCode> {
  readonly where: string;

  constructor(code: SkillErrorCode, where: string, problem: string, options: { cause?: unknown } = {}) {
    super(code, `${where}: ${problem}`, options);
    this.where = where;
  }
}
