/**
 * The permission system's data types (AgentScope `permission/_types.py`, `_rule.py`, `_decision.py`,
 * `_context.py`) in TypeScript idiom: string-valued const objects double as enums and as types.
 */

/** How the engine treats calls that no rule and no tool check settles (spec §3, step 6). */
export const PermissionMode = {
  DEFAULT: "default",
  ACCEPT_EDITS: "accept_edits",
  EXPLORE: "explore",
  BYPASS: "bypass",
  DONT_ASK: "dont_ask",
} as const;
export type PermissionMode = (typeof PermissionMode)[keyof typeof PermissionMode];

/** PASSTHROUGH is only ever returned by a tool: it hands the decision to the engine. */
export const PermissionBehavior = {
  ALLOW: "allow",
  DENY: "deny",
  ASK: "ask",
  PASSTHROUGH: "passthrough",
} as const;
export type PermissionBehavior = (typeof PermissionBehavior)[keyof typeof PermissionBehavior];

/**
 * One rule. `ruleContent` undefined (or "") means the rule covers every call of the tool; otherwise the
 * tool's `matchRule` decides. `source` ("userSettings", "projectSettings", "session", "suggested", ...)
 * is informational: it plays no part in precedence.
 */
export interface PermissionRule {
  toolName: string;
  ruleContent?: string | undefined;
  behavior: PermissionBehavior;
  source: string;
}

export interface PermissionDecision {
  behavior: PermissionBehavior;
  message: string;
  /** Why: "Rule: ...", "Mode: ...", "Safety check: ..." */
  reason?: string | undefined;
  /** Set by the allow-rule path to the (unchanged) input, as AgentScope does. */
  updatedInput?: Record<string, unknown> | undefined;
  /** Rules the user may accept to avoid being asked again; only on ASK (or a DONT_ASK conversion). */
  suggestions?: PermissionRule[] | undefined;
  /** On an ASK: a safety check that allow rules cannot silence (still skipped in BYPASS, DENY in DONT_ASK). */
  bypassImmune?: boolean | undefined;
}

/** Rules keyed by exact tool name, in insertion order. */
export type RulesByTool = Record<string, PermissionRule[]>;

/** What a tool's `checkPermissions` sees: the mode, the working set and the rules. */
export interface PermissionContext {
  mode: PermissionMode;
  /** Absolute or `~`-relative directories besides the host cwd where edits may be auto-allowed. */
  workingDirectories: string[];
  allowRules: RulesByTool;
  askRules: RulesByTool;
  denyRules: RulesByTool;
}
