import type { ShellWord } from "../shell-word.js";

/**
 * The read-only command policy is data: one `ProgramSpec` per program (and per subcommand) that
 * says which options the program accepts without writing, running or reaching anything else, how
 * each takes its value (getopt semantics), what its operands are, and examples that must stay
 * read-only or must not. Anything a spec does not list makes the command not read-only.
 * See docs/command-policy.md (generated from these specs).
 */

/**
 * How an option takes a value: not at all, always (attached or the next word), only attached
 * (`--color=auto`, `-U5`), as the next two words (`jq --arg name value`), or as a command up to
 * `;` or `+` (`find -exec grep -l x {} +`), which must itself be read-only.
 */
export type ValueKind = "none" | "required" | "optional" | "pair" | "command";

/**
 * What a value or an operand is, for the checks that follow the parse: `path` is a file or
 * directory the command reads (checked for secrets), `text` is data (patterns, formats, numbers).
 */
export type ArgumentRole = "text" | "path";

/** Why a value is refused (undefined: accepted). Used for the few values that change what runs. */
export type ValueCheck = (value: string) => string | undefined;

/** Effects of an option on how the command reads trees (used by the recursive-secret checks). */
export type OptionEffect = "recursive" | "follows-links" | "hidden" | "no-ignore" | "lists-names" | "prints-details";

export interface OptionSpec {
  /** Every spelling the program accepts (`-n`, `--lines`); the first one names the option in rule ids. */
  names: readonly string[];
  value?: ValueKind;
  /** What the value is (default `text`). */
  role?: ArgumentRole;
  /** A check of the value (e.g. `--directories` accepts `read` and `skip`, not `recurse` … unless recursive reads are judged). */
  check?: ValueCheck;
  effect?: OptionEffect;
  /**
   * For a `command` value: it runs elsewhere than the program, in directories only known at run
   * time (`find -execdir` runs it in each match's directory), so it gets their checks (unknown).
   */
  runsElsewhere?: true;
  /**
   * The option makes the program read names from stdin and print what they name (`git cat-file
   * --batch`, `git log --stdin`): a here-string's or here-doc's names get the checks of operands;
   * names an earlier command produces at run time make the command not read-only.
   */
  stdin?: "names";
}

/**
 * A project file that steers what a program runs or where it connects: a toolchain file naming
 * the compiler to run, JVM options, a registry. Found in the directory the command runs in or one
 * above it (up to the home, whose files are the user's own), it makes the command not read-only.
 */
export interface SteeringFile {
  /** Relative to the directory searched (`rust-toolchain.toml`, `.mvn/jvm.config`). */
  path: string;
  /** What the file makes the program do, and where the program documents it. */
  reason: string;
}

/** An option the program has that writes, runs or reaches elsewhere: named for the explanation. */
export interface ForbiddenOption {
  names: readonly string[];
  reason: string;
}

export interface OperandSpec {
  /** The role of every operand (default `path`). */
  role?: ArgumentRole;
  /** Leading operands with another role (`grep PATTERN FILE…`), skipped when one of `unlessOptions` supplies it. */
  leading?: readonly ArgumentRole[];
  unlessOptions?: readonly string[];
  /** At most this many operands (`uniq in out` writes its second). */
  max?: number;
  /** Exact operand lists accepted (`docker ps`, `systemctl status`), compared to the operands' values. */
  oneOf?: readonly (readonly string[])[];
  /** A check of each operand's value. */
  check?: ValueCheck;
}

export interface Examples {
  /** Commands this spec must judge read-only. */
  readOnly: readonly string[];
  /** Commands this spec must not judge read-only. */
  notReadOnly: readonly string[];
}

export interface ProgramSpec {
  /** The program name, or a subcommand's name inside `subcommands`. */
  name: string;
  aliases?: readonly string[];
  /** One line for the generated docs. */
  summary: string;
  /**
   * `getopt`: short options cluster (`-la`), `--long[=value]`, `--` ends options, options may follow
   * operands. `single-dash`: every option is one word (`find -name x`, `java -version`), no clusters.
   */
  style?: "getopt" | "single-dash";
  /** Options may follow operands (GNU permutation; default true). False: the first operand ends the options. */
  permute?: boolean;
  /** `head -20`, `tail -5`: a dash and digits is an option. */
  numericOption?: boolean;
  /** Every word is printed or ignored, never an option that matters (`echo`, `true`): no parse at all. */
  anyArguments?: boolean;
  /**
   * Every option the program has only changes what it prints about the files it reads (`cat`,
   * `ls`, `wc`): a word that may become an option at run time (`$f`, `*.ts`) is then harmless and
   * read as an operand. Otherwise such a word makes the command not read-only.
   */
  injectedOptionsHarmless?: boolean;
  options?: readonly OptionSpec[];
  forbidden?: readonly ForbiddenOption[];
  operands?: OperandSpec;
  /** The first operand names a subcommand, parsed with its own spec; an unlisted one is not read-only. */
  subcommands?: readonly ProgramSpec[];
  /** Subcommands may be omitted (`git stash` lists? no): the parent alone is read-only only when true. */
  bareIsReadOnly?: boolean;
  /** Files named inside option values, which the program reads (`kubectl -o go-template-file=F`): checked as paths. */
  pathsInValues?: (options: readonly ParsedOption[]) => ShellWord[];
  /** A check over the whole parse, for what the tables cannot say (program text, clock-setting operands). */
  check?: (parsed: ParsedArguments) => string | undefined;
  /** Project files that steer this program or subcommand (issue 24: project configuration is a fact specs refuse on). */
  steeredBy?: readonly SteeringFile[];
  examples?: Examples;
}

export interface ParsedOption {
  /** The canonical name (the spec's first spelling). */
  name: string;
  spec: OptionSpec;
  /** The value word (attached values get a word of their own, with the option prefix removed). */
  value: ShellWord | undefined;
  /** For a `command` value: the command's words (`grep -l x {}`). */
  nested?: ShellWord[] | undefined;
}

/** A successful parse: every option known and accepted, operands with their roles. */
export interface ParsedArguments {
  /** The spec path, e.g. `git.log`. */
  id: string;
  options: ParsedOption[];
  operands: ShellWord[];
  /** Operands and option values the command reads as files or directories. */
  paths: ShellWord[];
  /** Of those, the operands only (the start points of a recursive search). */
  pathOperands: ShellWord[];
  has(name: string): boolean;
  valuesOf(name: string): ShellWord[];
  /** The spec that parsed the innermost subcommand. */
  spec: ProgramSpec;
}

/** Specs are data; this only fixes the type so each file reads as a plain list. */
export function programSpecs(specs: readonly ProgramSpec[]): readonly ProgramSpec[] {
  return specs;
}

/** Spec builders: an option without a value, with a required value, with an attached-only value, or with a path value. */
export const flag = (...names: string[]): OptionSpec => ({ names });
export const valued = (...names: string[]): OptionSpec => ({ names, value: "required" });
export const optional = (...names: string[]): OptionSpec => ({ names, value: "optional" });
export const pathValued = (...names: string[]): OptionSpec => ({ names, value: "required", role: "path" });
export const withEffect = (option: OptionSpec, effect: OptionEffect): OptionSpec => ({ ...option, effect });
/** One flag per space-separated name (`flags("-a -b --all")`), for options that have no other spelling. */
export const flags = (names: string): OptionSpec[] =>
  names
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => flag(name));
/** One required-value option per space-separated name. */
export const valuedEach = (names: string): OptionSpec[] =>
  names
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => valued(name));
/** One attached-value option per space-separated name. */
export const optionalEach = (names: string): OptionSpec[] =>
  names
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => optional(name));
/** Forbidden options sharing one reason. */
export const forbid = (names: string, reason: string): ForbiddenOption[] =>
  names
    .split(/\s+/)
    .filter(Boolean)
    .map((name) => ({ names: [name], reason }));
