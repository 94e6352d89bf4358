import {
  PermissionBehavior,
  rulesOfTool,
  type PermissionContext,
  type PermissionDecision,
  type RulesByTool,
} from "../../permission/types.js";
import type { BashAnalysis } from "../shell/bash-analysis.js";
import { allowCoverage, allowRuleCovers } from "../shell/bash-rules.js";

/**
 * What a Bash call may ask to leave the sandbox for, for that one command
 * (docs/sandbox.md#escaping-the-sandbox-for-one-command), with what it then gets.
 */
export const SANDBOX_ESCAPES = {
  network: "the host's network, still inside the sandbox (writes bounded, secrets hidden, environment scrubbed)",
  unsandboxed: "no sandbox at all: the agent's whole filesystem, environment and network",
} as const;

export type SandboxEscape = keyof typeof SANDBOX_ESCAPES;

export const SANDBOX_ESCAPE_NAMES = Object.keys(SANDBOX_ESCAPES) as SandboxEscape[];

/** The rule content suffix that names an escape: `Bash(npm install:* [sandbox_escape=network])`. */
const ESCAPE_SUFFIX = /\s*\[sandbox_escape=([a-z]+)\]$/;

/**
 * A Bash rule's content split into the command part and the escape it names, if any. An unknown
 * escape name keeps the suffix in the command part, where it matches nothing.
 */
export function escapeRule(content: string): { command: string; escape: SandboxEscape | undefined } {
  const match = ESCAPE_SUFFIX.exec(content);
  const name = match?.[1];
  if (match === null || name === undefined || !Object.hasOwn(SANDBOX_ESCAPES, name)) return { command: content, escape: undefined };
  return { command: content.slice(0, match.index).trim() || "*", escape: name as SandboxEscape };
}

/**
 * The context `decideBash` should see for a call asking for `requested` (or none): the Bash allow
 * rules naming that escape with the suffix removed, those naming none as they are, the others left
 * out. (Deny and ask rules are matched by `Bash.matchRule`, which reads the suffix itself.)
 */
export function rulesForEscape(context: PermissionContext, toolName: string, requested: SandboxEscape | undefined): PermissionContext {
  const kept = rulesOfTool(context.allowRules, toolName).flatMap((rule) => {
    if (!rule.ruleContent) return [rule];
    const parsed = escapeRule(rule.ruleContent);
    return parsed.escape === requested ? [{ ...rule, ruleContent: parsed.command }] : [];
  });
  return { ...context, allowRules: Object.assign(Object.create(null) as RulesByTool, context.allowRules, { [toolName]: kept }) };
}

/**
 * True when the allow rules naming `requested` cover every command of the line, read-only ones
 * included (leaving the sandbox is what they grant), and every command those run.
 */
export function escapeGranted(analysis: BashAnalysis, context: PermissionContext, toolName: string, requested: SandboxEscape): boolean {
  if (analysis.unanalysable) return false;
  const contents = rulesOfTool(context.allowRules, toolName).flatMap((rule) => {
    const parsed = rule.ruleContent === undefined ? undefined : escapeRule(rule.ruleContent);
    return parsed?.escape === requested ? [parsed.command] : [];
  });
  const coverage = allowCoverage(contents, analysis);
  return (
    contents.length > 0 &&
    analysis.commands.every((command) => allowRuleCovers(contents, command)) &&
    coverage.complete &&
    coverage.riders.length === 0
  );
}

/**
 * The decision for a call that asks to escape without a rule granting it: an ASK in every mode,
 * BYPASS included (it opens the one boundary BYPASS relies on), that DONT_ASK turns into a DENY;
 * it names the escape and carries what the command would be asked for anyway.
 */
export function escapeAsk(requested: SandboxEscape, underlying: PermissionDecision): PermissionDecision {
  const also = underlying.behavior === PermissionBehavior.ALLOW ? "" : `; besides: ${underlying.message}`;
  return {
    behavior: PermissionBehavior.ASK,
    message: `Permission required: run this command with sandbox_escape "${requested}" (${SANDBOX_ESCAPES[requested]})${also}`,
    reason:
      `Safety check: fact.sandbox-escape: leaving the sandbox is asked for in every ` +
      `mode unless a rule such as Bash(<command> [sandbox_escape=${requested}]) allows it`,
    bypassImmune: true,
    alwaysAsk: true,
  };
}
