/**
 * The permission system's data types (docs/design/permission-model.md, "Data") in TypeScript idiom:
 * string-valued const objects double as enums and as types.
 */

/** How the engine treats calls that no rule and no tool check settles (docs/design/permission-model.md#steps, step 6). */
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
  /** Set by the allow-rule path to the (unchanged) input, as docs/design/permission-model.md describes. */
  updatedInput?: Record<string, unknown> | undefined;
  /** Rules the user may accept to avoid being asked again; only on ASK (or a DONT_ASK conversion). */
  suggestions?: PermissionRule[] | undefined;
  /** On an ASK: a safety check that allow rules cannot silence (still skipped in BYPASS, DENY in DONT_ASK). */
  bypassImmune?: boolean | undefined;
  /**
   * On an ASK: the strongest level, for writes to configuration that runs code later (git hooks,
   * shell start-up files, the SDK's own settings). The engine asks in EVERY mode, BYPASS and
   * ACCEPT_EDITS included; DONT_ASK turns it into DENY; no allow rule silences it and no rule is
   * suggested. Implies `bypassImmune`.
   */
  alwaysAsk?: boolean | undefined;
}

/** Rules keyed by exact tool name, in insertion order. */
export type RulesByTool = Record<string, PermissionRule[]>;

/** An empty rule list per tool, with no prototype: a tool may be named `constructor` or `__proto__`. */
export function emptyRulesByTool(): RulesByTool {
  return Object.create(null) as RulesByTool;
}

/** The rules written for `toolName`; never a property every object inherits (`toString`, `constructor`). */
export function rulesOfTool(byTool: RulesByTool, toolName: string): readonly PermissionRule[] {
  return Object.hasOwn(byTool, toolName) ? byTool[toolName]! : [];
}

/** What a tool's `checkPermissions` sees: the mode, the working set and the rules. */
export interface PermissionContext {
  mode: PermissionMode;
  /** Absolute or `~`-relative directories besides the host cwd where edits may be auto-allowed. */
  workingDirectories: string[];
  /**
   * Directories the read tools may read unasked but no file tool may change (the folders of the
   * skills a Toolkit loaded, docs/skills.md#resources-in-the-loop). Secrets in them still ask.
   */
  readOnlyDirectories?: string[] | undefined;
  allowRules: RulesByTool;
  askRules: RulesByTool;
  denyRules: RulesByTool;
  /**
   * What relative rule paths (`Read(./.env)`) resolve against: the settings file's project, or a
   * `projectRoot` given to the engine. When undefined, the first working directory, else the
   * tool's own configured cwd, else `process.cwd()` (see `ruleBaseDirectory`).
   */
  projectRoot?: string | undefined;
}

/** What the engine passes to `ToolBase.matchRule` beside the input: the context, and which rule is being matched. */
export interface RuleMatchContext extends PermissionContext {
  /**
   * The list the rule comes from. A search matches a deny or ask rule when it may read anything
   * the rule names, and an allow rule only when the rule covers where it searches.
   */
  ruleBehavior: Exclude<PermissionBehavior, "passthrough">;
  /** The tool name the rule is written for: `Read` when a `Read(...)` rule is matched against Grep. */
  ruleToolName: string;
}
