import { PermissionRuleError } from "./errors.js";
import type { PermissionBehavior, PermissionRule } from "./types.js";

/**
 * Tool names as tools and MCP servers spell them (`Bash`, `mcp__github__create_issue`, `text-stats`), with a
 * source prefix (`mcp:github/create_issue`).
 */
const TOOL_NAME = /^[A-Za-z0-9_.:*/-]+$/;

/** Why `name` cannot be a rule's tool name, or undefined when it can. */
export function toolNameProblem(name: string): string | undefined {
  if (name === "") return "the tool name is missing";
  if (!TOOL_NAME.test(name)) return `the tool name ${JSON.stringify(name)} may only contain letters, digits and _ . : * / -`;
  return undefined;
}

/**
 * Parses a Claude Code style rule: `Tool` (every call) or `Tool(content)`. Inside the content, `\(`,
 * `\)` and `\\` stand for literal `(`, `)` and `\`; other backslashes are kept for the tool's own
 * matcher (so `Bash(echo \*)` keeps its escaped star). `Tool()` and `Tool(*)` mean the whole tool.
 * Throws PermissionRuleError naming the rule (and `where`, e.g. a settings file) when malformed.
 */
export function parseRule(rule: string, behavior: PermissionBehavior, source = "session", where?: string): PermissionRule {
  const text = rule.trim();
  const fail = (problem: string): never => {
    throw new PermissionRuleError(rule, problem, where);
  };
  if (text === "") fail("the rule is empty");
  const open = firstUnescaped(text, "(");
  const toolName = (open === -1 ? text : text.slice(0, open)).trim();
  if (open === -1 && firstUnescaped(text, ")") !== -1) fail('it has a ")" without a matching "("');
  const nameProblem = toolNameProblem(toolName);
  if (nameProblem) fail(nameProblem);
  if (open === -1) return { toolName, behavior, source };
  if (!text.endsWith(")") || isEscaped(text, text.length - 1)) fail('the content must end with an unescaped ")"');
  const raw = text.slice(open + 1, -1);
  checkBalanced(raw, fail);
  const content = unescapeContent(raw).trim();
  if (content === "" || content === "*") return { toolName, behavior, source };
  return { toolName, ruleContent: content, behavior, source };
}

/** The inverse of parseRule: `Tool` or `Tool(content)` with parentheses and backslashes escaped. */
export function formatRule(rule: Pick<PermissionRule, "toolName" | "ruleContent">): string {
  if (!rule.ruleContent) return rule.toolName;
  return `${rule.toolName}(${rule.ruleContent.replace(/[\\()]/g, (char) => `\\${char}`)})`;
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) backslashes++;
  return backslashes % 2 === 1;
}

function firstUnescaped(text: string, char: string): number {
  for (let i = 0; i < text.length; i++) if (text[i] === char && !isEscaped(text, i)) return i;
  return -1;
}

/** Unescaped parentheses inside the content must pair up; a stray one is almost always a typo. */
function checkBalanced(raw: string, fail: (problem: string) => never): void {
  let depth = 0;
  for (let i = 0; i < raw.length; i++) {
    if (isEscaped(raw, i)) continue;
    if (raw[i] === "(") depth++;
    if (raw[i] === ")" && --depth < 0) fail('the content has an unescaped ")"; escape it as \\)');
  }
  if (depth > 0) fail('the content has an unescaped "("; escape it as \\(');
}

function unescapeContent(raw: string): string {
  return raw.replace(/\\([\\()])/g, "$1");
}
