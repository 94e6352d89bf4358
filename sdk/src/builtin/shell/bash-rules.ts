import type { AnalysedCommand, BashAnalysis } from "./bash-analysis.js";
import { programName } from "./command-wrappers.js";
import { withoutGitGlobalOptions } from "./git-global-options.js";
import type { ShellWord } from "./shell-word.js";

/**
 * Rule matching per simple command. A deny or ask rule matches when it matches ANY command of
 * the string, seen through every wrapper (`env`, `sudo`, `xargs`, `/usr/bin/…`, git global options);
 * an allow rule only counts when EVERY command is matched by some allow rule, seen through benign
 * wrappers only (so `Bash(git push:*)` never allows `sudo git push`).
 */

/** Variables that do not change which code runs: allow rules may ignore them (spec §4.3 SAFE_ENV_VARS, minus the dangerous ones). */
const SAFE_VARIABLES = new Set(["NODE_ENV", "PYTHONUNBUFFERED", "RUST_LOG", "RUST_BACKTRACE", "LANG", "TERM", "NO_COLOR", "FORCE_COLOR", "DEBUG", "VERBOSE", "CI", "USER", "TZ", "LC_ALL", "LC_CTYPE", "COLUMNS", "LINES", "CLICOLOR", "CLICOLOR_FORCE"]);

/** A word as rules see it: its value when that is a plain token, else its source text. */
function displayWord(word: ShellWord): string {
  return word.value !== undefined && word.value.length > 0 && !/[\s'"\\]/.test(word.value) ? word.value : word.text;
}

function joinWords(words: readonly ShellWord[]): string {
  const [first, ...rest] = words;
  if (!first) return "";
  const name = programName(first) ?? displayWord(first);
  return [name, ...rest.map(displayWord)].join(" ");
}

function hasOnlySafeAssignments(command: AnalysedCommand): boolean {
  return command.resolved.command.assignments.every((assignment) => SAFE_VARIABLES.has(assignment.name));
}

/** Every way a deny or ask rule may see one command. */
export function denyForms(command: AnalysedCommand): string[] {
  const forms = new Set<string>();
  for (const layer of command.resolved.layers) {
    if (layer.length === 0) continue;
    forms.add(joinWords(layer));
    if (programName(layer[0]) === "git") forms.add(joinWords(withoutGitGlobalOptions(layer)));
    for (const nested of findExecCommands(layer)) forms.add(joinWords(nested));
  }
  const assignments = command.resolved.command.assignments;
  if (assignments.length > 0) forms.add([...assignments.map((assignment) => assignment.text), joinWords(command.resolved.layers[0]!)].join(" "));
  return [...forms];
}

/** The forms an allow rule may match: through benign wrappers only, and only without unsafe assignments. */
export function allowForms(command: AnalysedCommand): string[] {
  const layers = command.resolved.layers.slice(0, command.resolved.benignLayers).filter((layer) => layer.length > 0);
  if (!hasOnlySafeAssignments(command)) {
    return [[...command.resolved.command.assignments.map((assignment) => assignment.text), joinWords(command.resolved.layers[0]!)].join(" ")];
  }
  return layers.map(joinWords);
}

/** `find . -exec rm {} ;` runs `rm`: deny rules see it. */
function findExecCommands(words: readonly ShellWord[]): ShellWord[][] {
  if (programName(words[0]) !== "find") return [];
  const nested: ShellWord[][] = [];
  for (let index = 1; index < words.length; index += 1) {
    if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[index]!.value ?? "")) continue;
    const end = words.findIndex((word, position) => position > index && (word.value === ";" || word.value === "+"));
    nested.push(words.slice(index + 1, end < 0 ? undefined : end));
  }
  return nested;
}

/** Claude Code / AgentScope rule content against one normalised command form. */
export function matchesRuleContent(content: string, form: string): boolean {
  const rule = content.trim().replace(/\s+/g, " ");
  if (rule.endsWith(":*")) {
    const prefix = rule.slice(0, -2).trim();
    return form === prefix || form.startsWith(`${prefix} `);
  }
  if (!/(^|[^\\])\*/.test(rule)) return form === rule.replace(/\\([\\*])/g, "$1");
  return wildcardPattern(rule).test(form);
}

const patternCache = new Map<string, RegExp>();

/** `*` matches anything; a trailing ` *` also matches nothing (`git *` matches `git`); `\*` is a star. */
function wildcardPattern(rule: string): RegExp {
  let pattern = patternCache.get(rule);
  if (pattern) return pattern;
  const optionalTail = rule.endsWith(" *");
  const body = optionalTail ? rule.slice(0, -2) : rule;
  let source = "";
  for (let index = 0; index < body.length; index += 1) {
    const character = body[index]!;
    if (character === "\\" && (body[index + 1] === "*" || body[index + 1] === "\\")) source += `\\${body[++index]}`;
    else if (character === "*") source += ".*";
    else source += character.replace(/[.^$+?{}[\]|()\\/]/g, "\\$&");
  }
  if (optionalTail) source += "(?: .*)?";
  pattern = new RegExp(`^${source}$`, "s");
  if (patternCache.size > 500) patternCache.clear();
  patternCache.set(rule, pattern);
  return pattern;
}

/** Whole-string forms, so a deny rule still fires when the parser could not split the string. */
function fallbackForms(analysis: BashAnalysis): string[] {
  const whole = analysis.command.trim().replace(/\s+/g, " ");
  if (analysis.script && analysis.script.unsupported.length === 0) return [whole];
  return [whole, ...analysis.command.split(/[;&|\n(){}`]|\$\(/).map((part) => part.trim().replace(/\s+/g, " ")).filter(Boolean)];
}

/** Deny/ask semantics: the rule matches some command of the string. */
export function ruleMatchesAnyCommand(content: string, analysis: BashAnalysis): boolean {
  return analysis.commands.some((command) => denyForms(command).some((form) => matchesRuleContent(content, form))) || fallbackForms(analysis).some((form) => matchesRuleContent(content, form));
}

export interface AllowCoverage {
  /** Every command is matched by some allow rule. */
  complete: boolean;
  /** Commands no allow rule covers. */
  uncovered: AnalysedCommand[];
  /** The rules that covered something. */
  used: string[];
}

/** Allow semantics: which commands the allow rules cover (read-only commands need no rule). */
export function allowCoverage(contents: readonly string[], analysis: BashAnalysis): AllowCoverage {
  const used = new Set<string>();
  const uncovered = analysis.commands.filter((command) => {
    if (command.readOnlyProblem === undefined) return false;
    const forms = allowForms(command);
    const rule = contents.find((content) => forms.some((form) => matchesRuleContent(content, form)));
    if (rule !== undefined) used.add(rule);
    return rule === undefined;
  });
  return { complete: analysis.commands.length > 0 && uncovered.length === 0, uncovered, used: [...used] };
}

/** Prefix rules (`git commit:*`) for the first five commands that are not read-only, as spec §4.11. */
export function suggestedRuleContents(analysis: BashAnalysis): string[] {
  const contents = new Set<string>();
  for (const command of analysis.commands.slice(0, 5)) {
    if (command.readOnlyProblem === undefined || !hasOnlySafeAssignments(command)) continue;
    const words = command.resolved.layers[command.resolved.benignLayers - 1] ?? [];
    if (words.length === 0) continue;
    const [name, first] = [programName(words[0]) ?? displayWord(words[0]!), words[1]];
    contents.add(first ? `${name} ${displayWord(first)}:*` : name);
  }
  return [...contents];
}
