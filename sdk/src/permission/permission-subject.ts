import type { PermissionContext, PermissionDecision, PermissionRule, RuleMatchContext } from "./types.js";

/**
 * Where a tool comes from, so rules can name the source (docs/permissions.md#rule-syntax):
 * `builtin:Read`, `registry:text-stats` (the tool id), `mcp:files/read_file` (the server and the
 * tool's own name) or `mcp:files` (the whole server). Only a `builtin` tool answers to a reserved
 * name such as `Read` (`RESERVED_TOOL_NAMES`).
 */
export type ToolOrigin =
  | { kind: "builtin" }
  | { kind: "registry"; toolId: string }
  | { kind: "mcp"; server: string; tool: string }
  | { kind: "custom" };

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
  /** Where the tool comes from (default `custom`): what `builtin:`, `registry:` and `mcp:` rules match. */
  readonly origin?: ToolOrigin | undefined;
  checkPermissions(input: Input, context: PermissionContext): PermissionDecision | Promise<PermissionDecision>;
  checkReadOnly(input: Input, context?: PermissionContext): boolean | Promise<boolean>;
  matchRule(ruleContent: string | undefined, input: Input, context?: RuleMatchContext): boolean | Promise<boolean>;
  generateSuggestions(input: Input, context?: PermissionContext): PermissionRule[] | Promise<PermissionRule[]>;
}
