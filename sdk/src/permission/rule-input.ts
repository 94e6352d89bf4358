import { PermissionRuleError } from "./errors.js";
import { formatRule, parseRule, toolNameProblem } from "./rule-syntax.js";
import type { PermissionBehavior, PermissionRule } from "./types.js";

/** A rule as users write it: a Claude Code string, or an object (behavior and source may come from where it is listed). */
export type PermissionRuleInput =
  | string
  | { toolName: string; ruleContent?: string | undefined; behavior?: PermissionBehavior; source?: string };

/** Normalises one rule given in an allow/ask/deny list; throws PermissionRuleError naming the rule. */
export function toPermissionRule(input: PermissionRuleInput, behavior: PermissionBehavior, source: string, where?: string): PermissionRule {
  if (typeof input === "string") return parseRule(input, behavior, source, where);
  if (input === null || typeof input !== "object" || typeof input.toolName !== "string") {
    throw new PermissionRuleError(JSON.stringify(input) ?? String(input), "a rule object needs a string toolName", where);
  }
  const shown = formatRule(input);
  const nameProblem = toolNameProblem(input.toolName);
  if (nameProblem) throw new PermissionRuleError(shown, nameProblem, where);
  if (input.ruleContent !== undefined && typeof input.ruleContent !== "string") {
    throw new PermissionRuleError(shown, "ruleContent must be a string when given", where);
  }
  if (input.behavior !== undefined && input.behavior !== behavior) {
    throw new PermissionRuleError(shown, `it says behavior "${input.behavior}" but is listed under "${behavior}"`, where);
  }
  const rule: PermissionRule = { toolName: input.toolName, behavior, source: input.source ?? source };
  if (input.ruleContent) rule.ruleContent = input.ruleContent;
  return rule;
}
