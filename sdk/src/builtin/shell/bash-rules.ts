import { basename, posix } from "node:path";
import type { AnalysedCommand, BashAnalysis } from "./bash-analysis.js";
import { programName, resolveCommand } from "./command-wrappers.js";
import { withoutGitGlobalOptions } from "./git-global-options.js";
import {
  EQUIVALENT_FORMS,
  INTERPRETERS,
  MULTI_CALL_BINARIES,
  PROGRAM_VALUE_OPTIONS,
  SUBCOMMAND_ALIASES,
} from "./policy/command-aliases.js";
import { GIT_SUBCOMMANDS } from "./policy/git-subcommands.js";
import { STRICT_PARSE_CONTEXT } from "./policy/argument-parser.js";
import { readOnlyVerdict } from "./policy/read-only-verdict.js";
import { riderProblem } from "./policy/rule-riders.js";
import { equivalentProgram } from "./policy/nested-commands.js";
import { SECRET_VARIABLE_NAME } from "./secret-variables.js";
import type { ShellWord } from "./shell-word.js";

/**
 * Rule matching per simple command. A deny or ask rule matches when it MAY match any command of
 * the string: seen through every wrapper (`env`, `sudo`, `xargs`, `busybox`, `/usr/bin/../bin/…`),
 * git global options and aliases, the package managers' own aliases, and with words only known at
 * run time (or appended by `xargs`) standing for anything. An allow rule only counts when EVERY
 * command, and every command those run (`find -exec`, `xargs`, `--script-shell`), is covered, seen
 * through benign wrappers only (so `Bash(git push:*)` never allows `sudo git push`).
 */

/** Variables that do not change which code runs: allow rules may ignore them. */
const SAFE_VARIABLES = new Set([
  "NODE_ENV",
  "PYTHONUNBUFFERED",
  "RUST_LOG",
  "RUST_BACKTRACE",
  "LANG",
  "TERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "DEBUG",
  "VERBOSE",
  "CI",
  "USER",
  "TZ",
  "LC_ALL",
  "LC_CTYPE",
  "COLUMNS",
  "LINES",
  "CLICOLOR",
  "CLICOLOR_FORCE",
]);

/** A word only known at run time: it may be any words, or none. */
const ANY = Symbol("any words");
type FormToken = string | typeof ANY;

/** One way a rule may see a command: its words, and whether more may follow (`xargs` appends). */
export interface CommandForm {
  tokens: FormToken[];
  open: boolean;
}

const ALIASES = new Map(
  SUBCOMMAND_ALIASES.map((table) => [
    table.program,
    new Map(Object.entries(table.aliases).flatMap(([canonical, spellings]) => spellings.map((spelling) => [spelling, canonical] as const))),
  ]),
);

/** A word as rules see it: its value when that is a plain token, else its source text. */
function displayWord(word: ShellWord): string {
  return word.value !== undefined && word.value.length > 0 && !/[\s'"\\]/.test(word.value) ? word.value : word.text;
}

function joinWords(words: readonly ShellWord[]): string {
  const [first, ...rest] = words;
  if (!first) return "";
  return [programName(first) ?? displayWord(first), ...rest.map(displayWord)].join(" ");
}

function hasOnlySafeAssignments(command: AnalysedCommand): boolean {
  return command.resolved.command.assignments.every((assignment) => SAFE_VARIABLES.has(assignment.name));
}

/** The program names a deny rule may know a word by: as resolved, its normalised path, and its bare name. */
function programNames(word: ShellWord): FormToken[] {
  if (word.value === undefined || word.expands) return [ANY];
  const normalised = word.value.includes("/") ? posix.normalize(word.value) : word.value;
  return [...new Set([programName(word) ?? word.value, programName({ ...word, value: normalised }) ?? normalised, basename(normalised)])];
}

const token = (word: ShellWord): FormToken => (word.value === undefined || word.expands ? ANY : displayWord(word));

/** Every form of one argv (one layer) a deny rule may match. */
function layerForms(words: readonly ShellWord[], open: boolean): CommandForm[] {
  if (words.length === 0) return [];
  const first = words[0]!;
  if (MULTI_CALL_BINARIES.has(programName(first) ?? "") && words.length > 1) return layerForms(words.slice(1), open);
  const forms: CommandForm[] = [];
  for (const name of programNames(first)) {
    const rest = words.slice(1).map(token);
    forms.push({ tokens: [name, ...rest], open });
    if (name === ANY) continue;
    forms.push(...aliasForms(name, rest, open));
    if (name === "git") forms.push(...gitForms(words, open));
    // `kubectl -n x delete`, `terraform -chdir=x apply -destroy`: the subcommand after global options.
    for (const later of afterLeadingOptions(rest)) forms.push({ tokens: [name, ...later], open }, ...aliasForms(name, later, open));
    // `doas`, `run0`, `pkexec`… are `sudo`; `tofu` is `terraform` (policy/nested-commands.ts).
    const same = equivalentProgram(name);
    if (same !== undefined) forms.push(...layerForms([{ ...first, value: same, text: same }, ...words.slice(1)], open));
  }
  return forms;
}

/** How many leading words may be options (and their values) before a subcommand. */
const MAX_LEADING_OPTION_WORDS = 6;

/**
 * The words from each place a subcommand may start after leading options: every word before it
 * is an option or an option's value (which value options take is not known here, so both).
 */
function afterLeadingOptions(rest: readonly FormToken[]): FormToken[][] {
  const isOption = (index: number) => typeof rest[index] === "string" && (rest[index] as string).startsWith("-");
  const found: FormToken[][] = [];
  for (let index = 1; index < Math.min(rest.length, MAX_LEADING_OPTION_WORDS + 1); index += 1) {
    if (!isOption(index - 1) && !isOption(index - 2)) break;
    if (!isOption(index)) found.push(rest.slice(index));
  }
  return isOption(0) ? found : [];
}

/** `npm i` is `npm install`; `docker container rm` is `docker rm`; `terraform apply -destroy` is `terraform destroy`. */
function aliasForms(name: string, rest: FormToken[], open: boolean): CommandForm[] {
  const forms: CommandForm[] = [];
  const aliases = ALIASES.get(name);
  const [first, second] = rest;
  if (aliases && typeof first === "string") {
    const pair = typeof second === "string" ? aliases.get(`${first} ${second}`) : undefined;
    if (pair) forms.push({ tokens: [name, pair, ...rest.slice(2)], open });
    const single = aliases.get(first);
    if (single) forms.push({ tokens: [name, single, ...rest.slice(1)], open });
  }
  for (const equivalent of EQUIVALENT_FORMS) {
    if (equivalent.program === name && first === equivalent.subcommand && rest.includes(equivalent.option))
      forms.push({
        tokens: [name, ...equivalent.canonical.split(" "), ...rest.slice(1).filter((word) => word !== equivalent.option)],
        open,
      });
  }
  return forms;
}

/**
 * git without its global options; `-c alias.p=push` applied; and a subcommand git does not know
 * (an alias from a config file, or a `git-foo` program) may be any subcommand.
 */
function gitForms(words: readonly ShellWord[], open: boolean): CommandForm[] {
  const stripped = withoutGitGlobalOptions([...words]);
  const [, subcommand, ...rest] = stripped.map(token);
  const forms: CommandForm[] = [{ tokens: ["git", ...stripped.slice(1).map(token)], open }];
  if (subcommand === undefined) return forms;
  const alias = commandLineAlias(words, subcommand);
  if (alias !== undefined)
    forms.push(alias.startsWith("!") ? { tokens: ["git", ANY], open: true } : { tokens: ["git", ...alias.split(/\s+/), ...rest], open });
  else if (subcommand === ANY || !GIT_SUBCOMMANDS.has(subcommand)) forms.push({ tokens: ["git", ANY], open: true });
  return forms;
}

function commandLineAlias(words: readonly ShellWord[], subcommand: FormToken): string | undefined {
  if (typeof subcommand !== "string") return undefined;
  for (let index = 1; index < words.length - 1; index += 1) {
    if (words[index]!.value !== "-c") continue;
    const setting = words[index + 1]!.value ?? "";
    const match = /^alias\.([^=]+)=(.*)$/is.exec(setting);
    if (match && match[1]!.toLowerCase() === subcommand.toLowerCase()) return match[2]!;
  }
  return undefined;
}

/** `find . -exec rm {} ;` and `fd -x rm` run `rm`: the commands a command runs for each file. */
function nestedCommands(words: readonly ShellWord[]): ShellWord[][] {
  const name = programName(words[0]);
  const starts = name === "find" ? ["-exec", "-execdir", "-ok", "-okdir"] : name === "fd" ? ["-x", "--exec", "-X", "--exec-batch"] : [];
  const nested: ShellWord[][] = [];
  for (let index = 1; index < words.length; index += 1) {
    if (!starts.includes(words[index]!.value ?? "")) continue;
    const end = words.findIndex((word, position) => position > index && (word.value === ";" || word.value === "+"));
    nested.push(words.slice(index + 1, end < 0 ? undefined : end));
  }
  return nested;
}

/** `npm run x --script-shell=./evil`, `rg --pre sh`: the programs named by option values. */
function programOptionValues(words: readonly ShellWord[]): ShellWord[][] {
  const options = PROGRAM_VALUE_OPTIONS.get(programName(words[0]) ?? "") ?? [];
  const programs: ShellWord[][] = [];
  words.forEach((word, index) => {
    const value = word.value;
    if (value === undefined) return;
    for (const option of options) {
      if (value === option && words[index + 1]) programs.push([words[index + 1]!]);
      else if (value.startsWith(`${option}=`)) programs.push([{ ...word, value: value.slice(option.length + 1) }]);
    }
  });
  return programs;
}

/** Every way a deny or ask rule may see one command. */
export function denyForms(command: AnalysedCommand): CommandForm[] {
  const forms: CommandForm[] = [];
  const { layers, appendsArguments } = command.resolved;
  layers.forEach((layer, index) => {
    // After `xargs`, more words follow at run time.
    const open = appendsArguments && index > 0;
    forms.push(...layerForms(layer, open));
    for (const nested of [...nestedCommands(layer), ...programOptionValues(layer)]) forms.push(...layerForms(nested, true));
  });
  const assignments = command.resolved.command.assignments;
  if (assignments.length > 0)
    forms.push({ tokens: [...assignments.map((assignment) => assignment.text), ...layers[0]!.map(token)], open: false });
  return forms;
}

/** One form an allow rule may match: its text, the program as rules name it, and its words as rules see them. */
interface AllowForm {
  form: string;
  program: string;
  tokens: string[];
}

function allowForm(words: readonly ShellWord[], assignments: readonly string[] = []): AllowForm {
  const tokens = [
    ...assignments,
    ...words.map((word, index) => (index === 0 ? (programName(word) ?? displayWord(word)) : displayWord(word))),
  ];
  return { form: [...assignments, joinWords(words)].join(" "), program: tokens[assignments.length] ?? "", tokens };
}

function allowFormsOf(command: AnalysedCommand): AllowForm[] {
  if (!hasOnlySafeAssignments(command))
    return [
      allowForm(
        command.resolved.layers[0]!,
        command.resolved.command.assignments.map((assignment) => assignment.text),
      ),
    ];
  return command.resolved.layers
    .slice(0, command.resolved.benignLayers)
    .filter((layer) => layer.length > 0)
    .map((layer) => allowForm(layer));
}

/** The forms an allow rule may match: through benign wrappers only, and only without unsafe assignments. */
export function allowForms(command: AnalysedCommand): string[] {
  return allowFormsOf(command).map((form) => form.form);
}

/** The words a rule spells out literally (`kubectl get:*` → kubectl, get). */
function literalPart(content: string): string[] {
  const rule = content.trim().replace(/\s+/g, " ");
  const literal = (rule.endsWith(":*") ? rule.slice(0, -2) : rule.split(/(?<!\\)\*/)[0]!).trim();
  return literal === "" ? [] : literal.split(" ");
}

/** Why a rule that matches a form does not cover it (an option after its words that loads code, changes the remote or writes). */
function formRider(content: string, form: AllowForm): string | undefined {
  const spelled = literalPart(content);
  return riderProblem(form.program, spelled, form.tokens.slice(spelled.length));
}

/** The first rule that covers a form; riders that stopped a matching rule are collected. */
function coveringRule(contents: readonly string[], forms: readonly AllowForm[], riders: Set<string>): string | undefined {
  for (const content of contents)
    for (const form of forms) {
      if (!matchesRuleContent(content, form.form)) continue;
      const rider = formRider(content, form);
      if (rider === undefined) return content;
      riders.add(`${content} does not cover ${rider}`);
    }
  return undefined;
}

/** True when an allow rule covers the command as rules see it, nothing riding with it (used for sandbox escapes). */
export function allowRuleCovers(contents: readonly string[], command: AnalysedCommand): boolean {
  return coveringRule(contents, allowFormsOf(command), new Set()) !== undefined;
}

/** Rule content against one literal command form. */
export function matchesRuleContent(content: string, form: string): boolean {
  const rule = content.trim().replace(/\s+/g, " ");
  if (rule.endsWith(":*")) {
    const prefix = rule.slice(0, -2).trim();
    return form === prefix || form.startsWith(`${prefix} `);
  }
  if (!/(^|[^\\])\*/.test(rule)) return form === rule.replace(/\\([\\*])/g, "$1");
  return wildcardPattern(rule).test(form);
}

/**
 * Whether a deny or ask rule may match a form with unknown words: an unknown word may be the
 * rest of the rule, and an open form may grow into it. Errs towards matching.
 */
export function mayMatchRule(content: string, form: CommandForm): boolean {
  const literal = form.tokens.every((part) => part !== ANY);
  if (literal && !form.open) return matchesRuleContent(content, form.tokens.join(" "));
  const rule = content.trim().replace(/\s+/g, " ");
  if (literal && matchesRuleContent(content, form.tokens.join(" "))) return true;
  const prefix = rule.endsWith(":*") ? rule.slice(0, -2).trim() : rule.split(/(?<!\\)\*/)[0]!.trim();
  const wanted = prefix === "" ? [] : prefix.split(" ");
  for (let index = 0; index < wanted.length; index += 1) {
    const part = form.tokens[index];
    if (part === ANY) return true;
    if (part === undefined) return form.open;
    if (index === wanted.length - 1 && !rule.endsWith(":*") && rule.includes("*"))
      return part.startsWith(wanted[index]!) || wildcardPattern(rule).test(form.tokens.slice(0, index + 1).join(" "));
    if (part !== wanted[index]) return false;
  }
  return true;
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
  return [
    whole,
    ...analysis.command
      .split(/[;&|\n(){}`]|\$\(/)
      .map((part) => part.trim().replace(/\s+/g, " "))
      .filter(Boolean),
  ];
}

/** Deny/ask semantics: the rule may match some command of the string. */
export function ruleMatchesAnyCommand(content: string, analysis: BashAnalysis): boolean {
  if (analysis.commands.some((command) => denyForms(command).some((form) => mayMatchRule(content, form)))) return true;
  if (fallbackForms(analysis).some((form) => matchesRuleContent(content, form))) return true;
  // `bash -c 'rm -rf x'`, `eval "git push"`: the script's own commands count; one only known at run time may be anything.
  return (analysis.nestedScripts ?? []).some((nested) => nested === undefined || ruleMatchesAnyCommand(content, nested));
}

export interface AllowCoverage {
  /** Every command is matched by some allow rule. */
  complete: boolean;
  /** Commands no allow rule covers. */
  uncovered: AnalysedCommand[];
  /** The rules that covered something. */
  used: string[];
  /**
   * What rides with the commands and no rule covers: an option after a rule's words that loads
   * code or changes the remote, a write redirect, a credential variable the rule does not spell.
   */
  riders: string[];
}

/** An argv another command runs: covered when it is read-only or an allow rule names it. */
function nestedCovered(words: ShellWord[], contents: readonly string[], used: Set<string>, riders: Set<string>): boolean {
  if (words.length === 0) return true;
  const resolved = resolveCommand({ text: words.map((word) => word.text).join(" "), assignments: [], words });
  if (readOnlyVerdict(resolved, STRICT_PARSE_CONTEXT).problem === undefined) return true;
  const rule = coveringRule(contents, [allowForm(words)], riders);
  if (rule !== undefined) used.add(rule);
  return rule !== undefined;
}

/** How many leading words of a form a rule spells out literally (`sudo npm:*` → 2, `xargs:*` → 1). */
function literalWords(content: string): number {
  return literalPart(content).length;
}

/**
 * Allow semantics: which commands the allow rules cover. What a command runs (the command after
 * `xargs` or `sudo`, a `find -exec` body, a `--script-shell` program) is covered only by a rule
 * that spells it out, or by a rule of its own, or by being read-only itself.
 */
export function allowCoverage(contents: readonly string[], analysis: BashAnalysis): AllowCoverage {
  const used = new Set<string>();
  const riders = new Set<string>();
  const uncovered = analysis.commands.filter((command) => {
    const { layers, benignLayers } = command.resolved;
    const outer = layers[benignLayers - 1] ?? [];
    const inner = [...layers.slice(benignLayers), ...layers.flatMap((layer) => [...nestedCommands(layer), ...programOptionValues(layer)])];
    let spelled = 0;
    if (command.readOnlyProblem !== undefined) {
      const rule = coveringRule(contents, allowFormsOf(command), riders);
      if (rule === undefined) return true;
      used.add(rule);
      spelled = literalWords(rule);
    }
    return !inner.every((words) => {
      const start = outer.indexOf(words[0]!);
      return (start >= 0 && spelled > start) || nestedCovered(words, contents, used, riders);
    });
  });
  for (const rider of lineRiders(analysis, [...used])) riders.add(rider);
  return { complete: analysis.commands.length > 0 && uncovered.length === 0, uncovered, used: [...used], riders: [...riders] };
}

/**
 * What the line adds beside its commands that no command rule covers: a write redirect (an edit,
 * judged as one), and a credential variable unless a rule that covered a command spells it.
 */
function lineRiders(analysis: BashAnalysis, used: readonly string[]): string[] {
  const script = analysis.script;
  if (script === undefined) return [];
  const redirects = script.redirects
    .filter((redirect) => redirect.kind === "write")
    .map((redirect) => `the write redirect '${redirect.text.trim()}': a rule covers the command it names, not a file written beside it`);
  const spelledVariable = (name: string) => used.some((content) => new RegExp(`\\$\\{?${name}\\b`).test(content));
  const variables = [...new Set(script.variables)]
    .filter((name) => SECRET_VARIABLE_NAME.test(name) && !spelledVariable(name))
    .map((name) => `the expansion of $${name}, which may hold a credential: no rule spells it`);
  return [...redirects, ...variables];
}

/**
 * Rules to suggest for the first five commands that are not read-only: a prefix rule
 * (`git commit:*`) for ordinary programs, the exact command for interpreters, options first
 * (`git -c …`), and commands that run other programs, so accepting one never allows any code.
 */
export function suggestedRuleContents(analysis: BashAnalysis): string[] {
  const contents = new Set<string>();
  for (const command of analysis.commands.slice(0, 5)) {
    if (command.readOnlyProblem === undefined || !hasOnlySafeAssignments(command)) continue;
    const words = command.resolved.layers[command.resolved.benignLayers - 1] ?? [];
    if (words.length === 0) continue;
    const name = programName(words[0]) ?? displayWord(words[0]!);
    const first = words[1];
    const runsCode =
      INTERPRETERS.has(name) ||
      name.includes("/") ||
      command.resolved.appendsArguments ||
      nestedCommands(words).length > 0 ||
      programOptionValues(words).length > 0;
    const exact =
      runsCode || (first !== undefined && (first.value === undefined || first.value.startsWith("-") || first.value.includes("/")));
    contents.add(exact ? joinWords(words) : first ? `${name} ${displayWord(first)}:*` : name);
  }
  return [...contents];
}
