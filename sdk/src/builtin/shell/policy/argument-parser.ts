import type { ShellWord } from "../shell-word.js";
import type { ArgumentRole, ForbiddenOption, OptionSpec, ParsedArguments, ParsedOption, ProgramSpec } from "./command-spec.js";

/** Why a command is not read-only, with the id of the rule that said so (`readonly.sort.forbid.-o`). */
export interface Refusal {
  ruleId: string;
  reason: string;
}

export type ParseResult = { parsed: ParsedArguments; refusal?: undefined } | { parsed?: undefined; refusal: Refusal };

export interface ParseContext {
  /** True when the word may turn into a word that starts with `-` at run time (a variable, a glob). */
  mayBecomeOption(word: ShellWord): boolean;
  /**
   * The directories the command line may run in (undefined: one only known at run time), for the
   * checks that depend on them (steering files, a nested git's repository). Absent: only known at run time.
   */
  directories?: readonly (string | undefined)[];
}

/** For a command found inside another (`find -exec`, an ACCEPT_EDITS edit): any unknown or globbed word may be an option. */
export const STRICT_PARSE_CONTEXT: ParseContext = { mayBecomeOption: (word) => word.value === undefined || word.expands };

interface OptionTable {
  accepted: Map<string, OptionSpec>;
  forbidden: Map<string, ForbiddenOption>;
  subcommands: Map<string, ProgramSpec>;
}

const tables = new WeakMap<ProgramSpec, OptionTable>();

/** The spec's lookup tables (Maps: a name such as `toString` must never find `Object.prototype`). */
export function optionTable(spec: ProgramSpec): OptionTable {
  let table = tables.get(spec);
  if (table) return table;
  table = { accepted: new Map(), forbidden: new Map(), subcommands: new Map() };
  for (const option of spec.options ?? []) for (const name of option.names) table.accepted.set(name, option);
  for (const option of spec.forbidden ?? []) for (const name of option.names) table.forbidden.set(name, option);
  for (const subcommand of spec.subcommands ?? [])
    for (const name of [subcommand.name, ...(subcommand.aliases ?? [])]) table.subcommands.set(name, subcommand);
  tables.set(spec, table);
  return table;
}

const refuse = (ruleId: string, reason: string): ParseResult => ({ refusal: { ruleId: `readonly.${ruleId}`, reason } });

/**
 * Parses `words` (the arguments after the program name, braces already expanded) the way the
 * program would: getopt clusters and attached values, `--long=value`, `--`, GNU permutation, or one
 * word per option for single-dash programs. The first option or form the spec does not accept ends
 * the parse with a refusal: an unlisted form is never read-only.
 */
export function parseArguments(spec: ProgramSpec, words: readonly ShellWord[], context: ParseContext, id: string = spec.name): ParseResult {
  const table = optionTable(spec);
  const options: ParsedOption[] = [];
  const operands: ShellWord[] = [];
  if (spec.anyArguments) return finish(spec, id, options, [...words]);
  let optionsEnded = false;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (optionsEnded) {
      operands.push(word);
      continue;
    }
    const value = word.value;
    if (value === undefined || (!value.startsWith("-") && context.mayBecomeOption(word))) {
      if (!spec.injectedOptionsHarmless || spec.subcommands)
        return refuse(`${id}.may-become-option`, `${word.text} may expand to an option at run time`);
      operands.push(word);
      continue;
    }
    if (value === "--") {
      optionsEnded = true;
      continue;
    }
    if (!value.startsWith("-") || value === "-") {
      if (spec.subcommands) return parseSubcommand(table, word, words.slice(index + 1), context, id, options);
      operands.push(word);
      if (spec.permute === false) optionsEnded = true;
      continue;
    }
    if (word.expands) return refuse(`${id}.may-become-option`, `${word.text} may expand to any option`);
    const step =
      spec.style === "single-dash"
        ? singleDashOption(table, id, value)
        : value.startsWith("--")
          ? longOption(table, id, value)
          : shortOptions(spec, table, id, value);
    if ("refusal" in step) return { refusal: step.refusal };
    for (const { option, attached, needsNext } of step.options) {
      if (option.value === "command") {
        const end = words.findIndex((candidate, position) => position > index && (candidate.value === ";" || candidate.value === "+"));
        if (end < 0) return refuse(`${id}.missing-value.${option.names[0]}`, `${option.names[0]} needs a command ended by ; or +`);
        options.push({ name: option.names[0]!, spec: option, value: undefined, nested: words.slice(index + 1, end) });
        index = end;
        continue;
      }
      let valueWord: ShellWord | undefined;
      if (attached !== undefined) valueWord = { ...word, text: word.text, value: attached, expands: false };
      else if (needsNext > 0) {
        valueWord = words[index + needsNext];
        if (valueWord === undefined)
          return refuse(`${id}.missing-value.${option.names[0]}`, `${option.names[0]} needs ${needsNext === 1 ? "a value" : "two values"}`);
        index += needsNext;
      }
      if (valueWord?.value !== undefined && option.check) {
        const problem = option.check(valueWord.value);
        if (problem) return refuse(`${id}.value.${option.names[0]}`, problem);
      }
      options.push({ name: option.names[0]!, spec: option, value: valueWord });
    }
  }
  if (spec.subcommands && !spec.bareIsReadOnly)
    return refuse(`${id}.no-subcommand`, `${id.replace(/\./g, " ")} without a subcommand is not read-only`);
  return finish(spec, id, options, operands);
}

interface OptionStep {
  option: OptionSpec;
  /** A value in the same word (`-n5`, `--lines=5`). */
  attached: string | undefined;
  /** How many following words are values (`jq --arg name value` takes two). */
  needsNext: number;
}
type Step = { options: OptionStep[] } | { refusal: Refusal };

function lookup(table: OptionTable, id: string, name: string): OptionSpec | Refusal {
  const accepted = table.accepted.get(name);
  if (accepted) return accepted;
  const forbidden = table.forbidden.get(name);
  if (forbidden) return { ruleId: `readonly.${id}.forbid.${forbidden.names[0]}`, reason: `${name} ${forbidden.reason}` };
  return {
    ruleId: `readonly.${id}.unknown-option.${name}`,
    reason: `${name} is not an option the read-only policy knows for ${id.replace(/\./g, " ")}`,
  };
}

const isRefusal = (value: OptionSpec | Refusal): value is Refusal => "ruleId" in value;

function longOption(table: OptionTable, id: string, word: string): Step {
  const equals = word.indexOf("=");
  const name = equals < 0 ? word : word.slice(0, equals);
  const option = lookup(table, id, name);
  if (isRefusal(option)) return { refusal: option };
  const kind = option.value ?? "none";
  if (kind === "none" && equals >= 0) return { refusal: { ruleId: `readonly.${id}.value.${name}`, reason: `${name} takes no value` } };
  return { options: [{ option, attached: equals < 0 ? undefined : word.slice(equals + 1), needsNext: equals < 0 ? wordsTaken(kind) : 0 }] };
}

function shortOptions(spec: ProgramSpec, table: OptionTable, id: string, word: string): Step {
  if (spec.numericOption && /^-[0-9]+$/.test(word)) return { options: [{ option: NUMERIC_OPTION, attached: word.slice(1), needsNext: 0 }] };
  const steps: OptionStep[] = [];
  for (let position = 1; position < word.length; position += 1) {
    const option = lookup(table, id, `-${word[position]}`);
    if (isRefusal(option)) return { refusal: option };
    const kind = option.value ?? "none";
    if (kind === "none") {
      steps.push({ option, attached: undefined, needsNext: 0 });
      continue;
    }
    // The rest of the cluster is the value (`-n5`, `-uo/etc/x`); a required value may be the next word.
    const rest = word.slice(position + 1);
    steps.push({ option, attached: rest === "" ? undefined : rest, needsNext: rest === "" ? wordsTaken(kind) : 0 });
    break;
  }
  return { options: steps };
}

/** `find -name x`, `java -version`: each option is one whole word, never a cluster. */
function singleDashOption(table: OptionTable, id: string, word: string): Step {
  const option = lookup(table, id, word);
  if (isRefusal(option)) return { refusal: option };
  return { options: [{ option, attached: undefined, needsNext: wordsTaken(option.value ?? "none") }] };
}

/** Words after the option that are its value when nothing is attached. */
function wordsTaken(kind: string): number {
  return kind === "required" ? 1 : kind === "pair" ? 2 : 0;
}

const NUMERIC_OPTION: OptionSpec = { names: ["-NUM"], value: "required" };

function parseSubcommand(
  table: OptionTable,
  word: ShellWord,
  rest: readonly ShellWord[],
  context: ParseContext,
  id: string,
  globalOptions: ParsedOption[],
): ParseResult {
  const name = word.value!;
  const subcommand = word.expands ? undefined : table.subcommands.get(name);
  if (!subcommand) return refuse(`${id}.unknown-subcommand.${name}`, `${id.replace(/\./g, " ")} ${name} is not a read-only subcommand`);
  const result = parseArguments(subcommand, rest, context, `${id}.${subcommand.name}`);
  if (result.refusal) return result;
  const parsed = result.parsed;
  const globalPaths = globalOptions.filter((option) => option.spec.role === "path" && option.value).map((option) => option.value!);
  return { parsed: withOptions({ ...parsed, options: [...globalOptions, ...parsed.options], paths: [...globalPaths, ...parsed.paths] }) };
}

function finish(spec: ProgramSpec, id: string, options: ParsedOption[], operands: ShellWord[]): ParseResult {
  const rule = spec.operands ?? {};
  if (rule.max !== undefined && operands.length > rule.max)
    return refuse(
      `${id}.operands.max`,
      `${id.replace(/\./g, " ")} takes at most ${rule.max} operand${rule.max === 1 ? "" : "s"} (another one is written)`,
    );
  if (rule.oneOf) {
    const values = operands.map((word) => word.value);
    const accepted = rule.oneOf.some((list) => list.length === values.length && list.every((value, index) => values[index] === value));
    if (!accepted)
      return refuse(
        `${id}.operands`,
        `only ${rule.oneOf.map((list) => [id.replace(/\./g, " "), ...list].join(" ")).join(", ")} are read-only`,
      );
  }
  if (rule.check) {
    for (const word of operands) {
      const problem = word.value === undefined ? `${word.text} is only known at run time` : rule.check(word.value);
      if (problem) return refuse(`${id}.operand`, problem);
    }
  }
  const suppliedByOption = (rule.unlessOptions ?? []).some((name) => options.some((option) => option.spec.names.includes(name)));
  const leading = suppliedByOption ? [] : (rule.leading ?? []);
  const roleOf = (index: number): ArgumentRole => leading[index] ?? rule.role ?? (spec.anyArguments ? "text" : "path");
  const pathOperands = operands.filter((_, index) => roleOf(index) === "path");
  const paths = [
    ...options.filter((option) => option.spec.role === "path" && option.value).map((option) => option.value!),
    ...(spec.pathsInValues?.(options) ?? []),
    ...pathOperands,
  ];
  const parsed = withOptions({ id, options, operands, paths, pathOperands, spec, has: () => false, valuesOf: () => [] });
  const problem = spec.check?.(parsed);
  return problem ? refuse(`${id}.check`, problem) : { parsed };
}

function withOptions(parsed: ParsedArguments): ParsedArguments {
  const options = parsed.options;
  return {
    ...parsed,
    has: (name) => options.some((option) => option.spec.names.includes(name)),
    valuesOf: (name) => options.filter((option) => option.spec.names.includes(name) && option.value).map((option) => option.value!),
  };
}
