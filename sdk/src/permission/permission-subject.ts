import type { PermissionContext, PermissionDecision, PermissionRule, RuleMatchContext } from "./types.js";

/**
 * What the engine needs of a tool to decide on a call of it: its names, its own check and its rule
 * matching. Every `ToolBase` is one (it declares `implements PermissionSubject`); the engine asks
 * for no more, so the permission folder does not depend on the tool folder that builds on it.
 */
export interface PermissionSubject<Input = any> {
  readonly name: string;
  readonly isMcp: boolean;
  /** The MCP server's name, so whole-server rules (`mcp__server`) cover the tool. */
  readonly mcpName: string | undefined;
  /** Other tools whose rules govern this one too (`Read` for Grep and Glob). */
  readonly sharesRulesWith: readonly string[];
  checkPermissions(input: Input, context: PermissionContext): PermissionDecision | Promise<PermissionDecision>;
  checkReadOnly(input: Input, context?: PermissionContext): boolean | Promise<boolean>;
  matchRule(ruleContent: string | undefined, input: Input, context?: RuleMatchContext): boolean | Promise<boolean>;
  generateSuggestions(input: Input, context?: PermissionContext): PermissionRule[] | Promise<PermissionRule[]>;
}
