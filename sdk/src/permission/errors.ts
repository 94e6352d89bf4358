import { AgentToolsError } from "../errors.js";

/** A rule string or object that cannot be understood; the message names the rule and where it came from. */
export class PermissionRuleError extends AgentToolsError {
  readonly rule: string;

  constructor(rule: string, problem: string, where?: string) {
    super(
      "INVALID_PERMISSION_RULE",
      `Invalid permission rule ${JSON.stringify(rule)}${where ? ` in ${where}` : ""}: ${problem}. ` +
        `Write rules as "Tool" or "Tool(content)", escaping literal parentheses in the content as \\( and \\).`,
    );
    this.rule = rule;
  }
}

/** An unknown mode, or an engine call missing what it needs. */
export class PermissionModeError extends AgentToolsError {
  constructor(message: string) {
    super("INVALID_PERMISSION_CONFIG", message);
  }
}

/** Settings files (or code settings) with problems; `issues` lists each with its file and rule. */
export class PermissionSettingsError extends AgentToolsError {
  readonly issues: readonly { file: string; rule?: string; message: string }[];

  constructor(issues: readonly { file: string; rule?: string; message: string }[]) {
    super(
      "INVALID_PERMISSION_SETTINGS",
      `The permission settings have ${issues.length} problem(s); fix them or remove the offending entries:\n` +
        issues.map((issue) => `- ${issue.file}: ${issue.message}`).join("\n"),
    );
    this.issues = issues;
  }
}
