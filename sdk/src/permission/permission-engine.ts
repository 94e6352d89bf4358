import { DecisionLog, type DecisionRecord } from "./decision-log.js";
import { PermissionModeError, PermissionSettingsError } from "./errors.js";
import { inputDigest, inputSummary } from "./input-summary.js";
import { toPermissionRule, type PermissionRuleInput } from "./rule-input.js";
import { ruleKeys } from "./rule-keys.js";
import { formatRule } from "./rule-syntax.js";
import { loadPermissionSettings, type LoadPermissionSettingsOptions } from "./settings/load-permission-settings.js";
import type { PermissionSubject } from "./permission-subject.js";
import {
  PermissionBehavior,
  PermissionMode,
  type PermissionContext,
  type PermissionDecision,
  type PermissionRule,
  type RulesByTool,
  emptyRulesByTool,
  rulesOfTool,
} from "./types.js";

export interface PermissionEngineOptions {
  mode?: PermissionMode;
  /**
   * The project's directories: file tools read there unasked and ACCEPT_EDITS may auto-allow edits
   * there. When none is given, `process.cwd()` (or a tool's own configured cwd) stands in.
   */
  workingDirectories?: string[];
  /** Readable unasked, never changed by the file tools (see `PermissionContext.readOnlyDirectories`). */
  readOnlyDirectories?: string[];
  /** What relative rule paths resolve against (default: the first working directory). `fromSettings` sets the settings file's project. */
  projectRoot?: string | undefined;
  allow?: PermissionRuleInput[];
  ask?: PermissionRuleInput[];
  deny?: PermissionRuleInput[];
  /** The `source` given to rules passed here as strings (default "session"). */
  source?: string;
  /**
   * Append every decision, and every answer to an ASK (`recordAnswer`), to this JSONL file
   * (docs/permissions.md#decision-log); `agent-tools permissions log` reads it. A decision that
   * cannot be written throws. Default: no log.
   */
  decisionLog?: string | undefined;
  /** The settings file behind each rule source (`projectSettings` → its path), named in the log; `loadPermissionSettings` fills it. */
  settingsFiles?: Record<string, string> | undefined;
}

/** Who answered an ASK the engine returned, and how: the decision log's `answer` line. */
export interface PermissionAnswer {
  allowed: boolean;
  /** `user` (a Toolkit confirmation), `onCapabilityRequest`, `onTrustRequest`, … */
  answeredBy: string;
  /** Rules the answer asked to remember. */
  remembered?: readonly PermissionRule[];
}

/** The engine's verdict: never PASSTHROUGH, and every field present. */
export interface PermissionResult extends PermissionDecision {
  behavior: Exclude<PermissionBehavior, "passthrough">;
  reason: string | undefined;
  /** Only on ASK, or on a DENY that DONT_ASK converted from an ASK; empty otherwise. */
  suggestions: PermissionRule[];
  bypassImmune: boolean;
  /** A protected-configuration ASK: asked in every mode (DENY in DONT_ASK); see `PermissionDecision.alwaysAsk`. */
  alwaysAsk: boolean;
}

const RULE_LISTS = {
  [PermissionBehavior.ALLOW]: "allowRules",
  [PermissionBehavior.ASK]: "askRules",
  [PermissionBehavior.DENY]: "denyRules",
} as const;

type AnyTool = PermissionSubject;

/**
 * Decides for each call whether it may run, must ask the user, or is refused, with the
 * per-mode step order: deny rule > ask rule > read-only fast path > the tool's own check
 * (ALLOW / DENY / protected-config ASK in every mode / safety ASK) > allow rule > the mode's default. Rules are matched by the tool's
 * `matchRule`; an MCP tool is also covered by whole-server rules (`mcp__server`, `mcp__server__*`), and every tool by
 * the rules naming its origin (`builtin:Read`, `registry:<id>`, `mcp:server/tool`; see `ruleKeys`).
 */
export class PermissionEngine {
  readonly context: PermissionContext;
  /** Where decisions are appended, if anywhere. */
  readonly decisionLog: DecisionLog | undefined;
  private readonly settingsFiles: Readonly<Record<string, string>>;

  constructor(options: PermissionEngineOptions = {}) {
    this.decisionLog = options.decisionLog === undefined ? undefined : new DecisionLog(options.decisionLog);
    this.settingsFiles = { ...options.settingsFiles };
    this.context = {
      mode: checkedMode(options.mode ?? PermissionMode.DEFAULT),
      workingDirectories: [...(options.workingDirectories ?? [])],
      readOnlyDirectories: [...(options.readOnlyDirectories ?? [])],
      allowRules: emptyRulesByTool(),
      askRules: emptyRulesByTool(),
      denyRules: emptyRulesByTool(),
      projectRoot: options.projectRoot,
    };
    const source = options.source ?? "session";
    for (const behavior of [PermissionBehavior.ALLOW, PermissionBehavior.ASK, PermissionBehavior.DENY] as const) {
      for (const rule of options[behavior] ?? []) this.addRule(toPermissionRule(rule, behavior, source));
    }
  }

  /**
   * An engine from the layered settings files plus `code` (see `loadPermissionSettings` for the
   * precedence). Throws PermissionSettingsError listing every bad file, field and rule; call
   * `loadPermissionSettings` yourself to load the valid part and report the issues another way.
   */
  static fromSettings(options: LoadPermissionSettingsOptions = {}): PermissionEngine {
    const settings = loadPermissionSettings(options);
    if (settings.issues.length > 0) throw new PermissionSettingsError(settings.issues);
    return new PermissionEngine(settings);
  }

  get mode(): PermissionMode {
    return this.context.mode;
  }

  setMode(mode: PermissionMode): void {
    this.context.mode = checkedMode(mode);
  }

  addWorkingDirectory(directory: string): void {
    if (!this.context.workingDirectories.includes(directory)) this.context.workingDirectories.push(directory);
  }

  /** A directory the read tools may read unasked and no file tool may change (a loaded skill's folder). */
  addReadOnlyDirectory(directory: string): void {
    const directories = (this.context.readOnlyDirectories ??= []);
    if (!directories.includes(directory)) directories.push(directory);
  }

  /**
   * Remembers a rule (e.g. one the user accepted when confirming). A string needs its behavior; a
   * PASSTHROUGH rule is dropped (docs/design/permission-model.md); an identical rule is not added twice.
   */
  addRule(rule: PermissionRuleInput, behavior?: PermissionBehavior): void {
    const resolvedBehavior = behavior ?? (typeof rule === "string" ? undefined : rule.behavior);
    if (resolvedBehavior === undefined) {
      throw new PermissionModeError(
        `addRule(${JSON.stringify(rule)}) needs a behavior: pass "allow", "ask" or "deny" as the second argument.`,
      );
    }
    if (resolvedBehavior === PermissionBehavior.PASSTHROUGH) return;
    const normalized = toPermissionRule(rule, resolvedBehavior, "session");
    const byTool = this.rulesFor(resolvedBehavior);
    if (!Object.hasOwn(byTool, normalized.toolName)) byTool[normalized.toolName] = [];
    const list = byTool[normalized.toolName]!;
    if (!list.some((existing) => existing.ruleContent === normalized.ruleContent)) list.push(normalized);
  }

  /** Every rule of one behavior, in insertion order per tool. */
  listRules(behavior: Exclude<PermissionBehavior, "passthrough">): PermissionRule[] {
    return Object.values(this.rulesFor(behavior)).flat();
  }

  async checkPermission(tool: AnyTool, input: Record<string, unknown>): Promise<PermissionResult> {
    const { result: decision, rule } = await this.decide(tool, input);
    this.decisionLog?.append({
      ...this.recordOf("decision", tool, input, decision.behavior),
      reason: decision.reason,
      ...(rule === undefined ? {} : this.ruleFields(rule)),
    });
    return decision;
  }

  /**
   * Records who answered an ASK this engine returned for `tool` and `input`, and how, in the
   * decision log (a no-op without one). The Toolkit's executor, the capability and trust
   * questions call it; a host that asks the user itself should too.
   */
  recordAnswer(tool: AnyTool, input: Record<string, unknown>, answer: PermissionAnswer): void {
    this.decisionLog?.append({
      ...this.recordOf("answer", tool, input, answer.allowed ? "allow" : "deny"),
      answered_by: answer.answeredBy,
      ...(answer.remembered && answer.remembered.length > 0 ? { remembered: answer.remembered.map(formatRule) } : {}),
    });
  }

  private recordOf(event: DecisionRecord["event"], tool: AnyTool, input: Record<string, unknown>, outcome: DecisionRecord["outcome"]) {
    const origin = originName(tool);
    return {
      time: new Date().toISOString(),
      event,
      tool: tool.name,
      ...(origin === undefined ? {} : { origin }),
      input_digest: inputDigest(input),
      input: inputSummary(input),
      mode: this.context.mode,
      outcome,
    };
  }

  private ruleFields(rule: PermissionRule): Pick<DecisionRecord, "rule" | "rule_source" | "settings_file"> {
    const file = Object.hasOwn(this.settingsFiles, rule.source) ? this.settingsFiles[rule.source] : undefined;
    return { rule: formatRule(rule), rule_source: rule.source, ...(file === undefined ? {} : { settings_file: file }) };
  }

  /** The verdict, and the rule that gave it (when one did). */
  private async decide(tool: AnyTool, input: Record<string, unknown>): Promise<{ result: PermissionResult; rule?: PermissionRule }> {
    const { mode } = this.context;
    const name = tool.name;

    const denyRule = await this.firstMatch(PermissionBehavior.DENY, tool, input);
    if (denyRule)
      return {
        result: result({ behavior: "deny", message: `Permission to use ${name} has been denied`, reason: ruleReason(denyRule) }),
        rule: denyRule,
      };

    const askRule = await this.firstMatch(PermissionBehavior.ASK, tool, input);
    if (askRule) {
      const ask = result({ behavior: "ask", message: `Permission required for ${name}`, reason: ruleReason(askRule) });
      return { result: await this.askOrConvert(ask, tool, input), rule: askRule };
    }

    if (await tool.checkReadOnly(input, this.context)) {
      return {
        result: result({
          behavior: "allow",
          message: `Permission granted for ${name} (read-only invocation)`,
          reason: "Read-only operations are auto-allowed",
        }),
      };
    }

    // EXPLORE neither runs the tool's own check nor consults allow rules: only read-only calls pass.
    if (mode === PermissionMode.EXPLORE) {
      return {
        result: result({
          behavior: "deny",
          message: `Permission denied for ${name} (explore mode is read-only)`,
          reason: "Explore mode does not allow modifications",
        }),
      };
    }

    const own = await tool.checkPermissions(input, this.context);
    if (own.behavior === PermissionBehavior.ALLOW || own.behavior === PermissionBehavior.DENY) {
      return { result: result({ ...own, behavior: own.behavior, suggestions: [], bypassImmune: false, alwaysAsk: false }) };
    }
    // Protected configuration asks in every mode, with nothing to suggest (no rule would silence it).
    if (own.behavior === PermissionBehavior.ASK && own.alwaysAsk) {
      const ask = result({ ...own, behavior: own.behavior, suggestions: [], bypassImmune: true, alwaysAsk: true });
      return { result: await this.askOrConvert(ask, tool, input) };
    }
    // A safety ASK survives allow rules; BYPASS opts out of it by design. A plain ASK or PASSTHROUGH falls through.
    if (own.behavior === PermissionBehavior.ASK && own.bypassImmune && mode !== PermissionMode.BYPASS) {
      return { result: await this.askOrConvert(result({ ...own, behavior: own.behavior, bypassImmune: true }), tool, input) };
    }

    const allowRule = await this.firstMatch(PermissionBehavior.ALLOW, tool, input);
    if (allowRule) {
      return {
        result: result({
          behavior: "allow",
          message: `Permission granted for ${name}`,
          reason: ruleReason(allowRule),
          updatedInput: input,
        }),
        rule: allowRule,
      };
    }

    if (mode === PermissionMode.BYPASS) {
      return {
        result: result({
          behavior: "allow",
          message: `Permission granted for ${name} (bypass mode)`,
          reason: "Bypass mode allows all operations",
        }),
      };
    }
    if (mode === PermissionMode.DONT_ASK) {
      return {
        result: result({
          behavior: "deny",
          message: `Permission denied for ${name} (dont_ask mode - user not available)`,
          reason: `Mode: ${mode}`,
        }),
      };
    }
    const ask = result({ behavior: "ask", message: `Permission required for ${name}`, reason: `Mode: ${mode}` });
    return { result: await this.askOrConvert(ask, tool, input) };
  }

  /** Attaches suggestions to an ASK; in DONT_ASK, where nobody can answer, turns it into a DENY that keeps them. */
  private async askOrConvert(ask: PermissionResult, tool: AnyTool, input: Record<string, unknown>): Promise<PermissionResult> {
    const suggestions = ask.alwaysAsk || ask.suggestions.length > 0 ? ask.suggestions : await tool.generateSuggestions(input, this.context);
    if (this.context.mode !== PermissionMode.DONT_ASK) return { ...ask, suggestions };
    return {
      ...ask,
      behavior: "deny",
      message: `Permission denied for ${tool.name} (dont_ask mode - ASK converted to DENY, user not available)`,
      reason: `DONT_ASK mode converted ASK to DENY. Original reason: ${ask.reason ?? ask.message}`,
      suggestions,
    };
  }

  private async firstMatch(
    behavior: keyof typeof RULE_LISTS,
    tool: AnyTool,
    input: Record<string, unknown>,
  ): Promise<PermissionRule | undefined> {
    const byTool = this.rulesFor(behavior);
    for (const key of ruleKeys(tool)) {
      for (const rule of rulesOfTool(byTool, key)) {
        if (
          !rule.ruleContent ||
          (await tool.matchRule(rule.ruleContent, input, { ...this.context, ruleBehavior: behavior, ruleToolName: key }))
        )
          return rule;
      }
    }
    return undefined;
  }

  private rulesFor(behavior: keyof typeof RULE_LISTS): RulesByTool {
    return this.context[RULE_LISTS[behavior]];
  }
}

/**
 * The tool's origin as a rule names it (`builtin:Read`, `registry:text-stats`, `mcp:files/read_file`);
 * undefined for the application's own tools.
 */
function originName(tool: AnyTool): string | undefined {
  const origin = tool.origin;
  if (origin === undefined || origin.kind === "custom") return undefined;
  if (origin.kind === "builtin") return `builtin:${tool.name}`;
  if (origin.kind === "registry") return `registry:${origin.toolId}`;
  return `mcp:${origin.server}/${origin.tool}`;
}

function ruleReason(rule: PermissionRule): string {
  return `Rule: ${formatRule(rule)}`;
}

function result(decision: PermissionDecision & { behavior: PermissionResult["behavior"] }): PermissionResult {
  return {
    ...decision,
    reason: decision.reason,
    suggestions: decision.suggestions ?? [],
    bypassImmune: (decision.bypassImmune ?? false) || (decision.alwaysAsk ?? false),
    alwaysAsk: decision.alwaysAsk ?? false,
  };
}

function checkedMode(mode: string): PermissionMode {
  const modes: readonly string[] = Object.values(PermissionMode);
  if (!modes.includes(mode)) {
    throw new PermissionModeError(`Unknown permission mode ${JSON.stringify(mode)}; use one of ${modes.join(", ")}.`);
  }
  return mode as PermissionMode;
}
