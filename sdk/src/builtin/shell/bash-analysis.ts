import { homedir } from "node:os";
import { resolve } from "node:path";
import { optionName, operands } from "./command-arguments.js";
import { resolveCommand, type ResolvedCommand } from "./command-wrappers.js";
import { dangerousCommandProblem, dangerousScriptProblem } from "./dangerous-commands.js";
import { readOnlyVerdict } from "./policy/read-only-verdict.js";
import { stdinNames } from "./stdin-names.js";
import { hiddenCommands } from "./policy/nested-commands.js";
import { withoutGitGlobalOptions } from "./git-global-options.js";
import { pathspecReads } from "./git-pathspec.js";
import type { ParseContext } from "./policy/argument-parser.js";
import type { ParsedArguments } from "./policy/command-spec.js";
import { listedNames, recursiveRoots, treeReading, xargsSource } from "./read-sources.js";
import { CODE_LOADING_VARIABLE, SECRET_VARIABLE_NAME } from "./secret-variables.js";
import { globMayStartWithDash } from "./glob-options.js";
import { withStaticSubstitutions } from "./static-substitutions.js";
import { parseShellScript, type Assignment, type ShellScript, type StdinSource } from "./shell-script.js";
import type { ShellWord } from "./shell-word.js";
import { expandHome } from "../../permission/working-directories.js";
import { widerReading, type TreeReading } from "../paths/tree-secrets.js";

/** Longer commands are not analysed (a person should read them); Claude Code uses the same cap. */
export const MAX_COMMAND_LENGTH = 10_000;
/** More simple commands than this in one call are not analysed. */
export const MAX_COMMAND_COUNT = 50;

/** Carriage returns, NUL, escape sequences and invisible or bidirectional Unicode hide what runs. */
const HIDDEN_CHARACTERS =
  /[\u0000-\u0008\u000b-\u001f\u007f\u0085\u00a0\u00ad\u115f\u1160\u1680\u17b4\u17b5\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\uffa0\u{e0000}-\u{e007f}]|\u034f|[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]/u;

export interface AnalysedCommand {
  resolved: ResolvedCommand;
  /** Undefined when this command only reads. */
  readOnlyProblem: string | undefined;
  /** The read-only policy rule that decided (`readonly.git.log`, `readonly.sort.forbid.-o`). */
  readOnlyRule: string;
  /** The spec parse, when the policy accepted every argument. */
  parsed: ParsedArguments | undefined;
  /** A destructive pattern (bypass-immune ASK), if any. */
  dangerous: string | undefined;
  /** Arguments that may name files, with the option prefix removed (`--output=x` → `x`). */
  pathArguments: ShellWord[];
  /** Of those, the ones the command only reads even though it writes elsewhere (`cp` sources). */
  sourceArguments: ShellWord[];
  /** Directories whose whole tree the command reads (`grep -r x ~`, `find ~ | xargs cat`). */
  recursiveRoots: ShellWord[];
  /** How it walks them (hidden files, gitignore, symbolic links). */
  treeReading: TreeReading;
}

/** Commands that read every operand but the destination (the last one, or the `-t` directory). */
const COPYING_COMMANDS = new Set(["cp", "ln", "install", "rsync", "scp"]);

/** Everything the permission checks need to know about one command string, computed once. */
export interface BashAnalysis {
  command: string;
  script: ShellScript | undefined;
  commands: AnalysedCommand[];
  /** Why the string cannot be analysed at all: a bypass-immune ASK. */
  unanalysable: string | undefined;
  /** A destructive script-level pattern or a dangerous assignment: a bypass-immune ASK. */
  dangerous: string | undefined;
  /** Why the script as a whole is not read-only (assignments, functions, write redirects). */
  scriptProblem: string | undefined;
  /** Directories commands may run in: the tool's cwd plus every `cd` target (undefined if unknown). */
  directories: (string | undefined)[];
  /**
   * Scripts the commands hand to a shell (`bash -c '…'`, `eval …`), analysed in turn so deny rules
   * see their commands; undefined entries are scripts only known at run time.
   */
  nestedScripts?: (BashAnalysis | undefined)[];
}

/** Shells whose `-c` argument is a script, and how deep nested scripts are followed. */
const SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh"]);
const MAX_SCRIPT_DEPTH = 3;

export async function analyseBash(command: string, cwd: string, depth = 0): Promise<BashAnalysis> {
  try {
    const analysis = await analyse(command, cwd);
    if (depth < MAX_SCRIPT_DEPTH) {
      const scripts = analysis.commands.flatMap((entry) => shellScripts(entry.resolved));
      if (scripts.length > 0)
        analysis.nestedScripts = await Promise.all(
          scripts.map((script) => (script === undefined ? undefined : analyseBash(script, cwd, depth + 1))),
        );
    }
    return analysis;
  } catch (error) {
    // Defence in depth: an input the analysis trips over is never auto-allowed.
    return {
      ...emptyAnalysis(command, cwd),
      unanalysable: `the analysis failed on this command (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** An analysis that found nothing yet: no commands, no problem, the working directory as the only one touched. */
function emptyAnalysis(command: string, cwd: string): BashAnalysis {
  return {
    command,
    script: undefined,
    commands: [],
    unanalysable: undefined,
    dangerous: undefined,
    scriptProblem: undefined,
    directories: [cwd],
  };
}

async function analyse(command: string, cwd: string): Promise<BashAnalysis> {
  const analysis = emptyAnalysis(command, cwd);
  if (command.length > MAX_COMMAND_LENGTH)
    return { ...analysis, unanalysable: `the command is longer than ${MAX_COMMAND_LENGTH} characters` };
  if (HIDDEN_CHARACTERS.test(command))
    return { ...analysis, unanalysable: "the command contains control or invisible characters that can hide what runs" };
  const script = await parseShellScript(command);
  analysis.script = script;
  const resolved = script.commands.map((simple) => resolveCommand(withStaticSubstitutions(simple, cwd)));
  // Every directory of the line, for the specs' checks that depend on where a command runs (steering files).
  const context: ParseContext = { ...PARSE_CONTEXT, directories: directoriesOf(resolved, cwd) };
  analysis.commands = resolved.map((command) => analyseCommand(command, cwd, context));
  boundXargsNames(script, analysis.commands);
  boundSubstitutedNames(analysis.commands);
  analysis.unanalysable = firstOf(
    script.unsupported[0] && `Command contains ${script.unsupported[0]}, which cannot be analysed`,
    script.dynamic[0] && `Command contains ${script.dynamic[0]} which cannot be statically analyzed`,
    script.commands.length > MAX_COMMAND_COUNT ? `the command has more than ${MAX_COMMAND_COUNT} parts` : undefined,
    analysis.commands.find((entry) => entry.resolved.opaque)?.resolved.opaque,
  );
  const loopAssignments = script.loopVariables.map((name) => ({ name, value: undefined, text: `for ${name} in …` }));
  const assignments = [...script.statements, ...loopAssignments, ...analysis.commands.flatMap((entry) => entry.resolved.assignments)];
  analysis.dangerous = firstOf(
    dangerousAssignment(assignments),
    dangerousScriptProblem(script, (simple) => analysis.commands[script.commands.indexOf(simple)]?.resolved.name),
  );
  analysis.scriptProblem = firstOf(
    script.statements[0] && `the statement '${script.statements[0].text}' changes the shell's state`,
    script.constructs.find((construct) => construct.type === "function") && "it defines a function",
    script.redirects.find((redirect) => redirect.kind === "write") && "it redirects output to a file",
    secretVariable(script.variables),
  );
  analysis.directories = [...context.directories!];
  return analysis;
}

/** Words that may become options: unknown values, and globs that may match a name starting with `-`. */
const PARSE_CONTEXT: ParseContext = {
  mayBecomeOption: (word) => word.value === undefined || (word.expands && globMayStartWithDash(word.value)),
};

function analyseCommand(resolved: ResolvedCommand, cwd: string, context: ParseContext): AnalysedCommand {
  const verdict = readOnlyVerdict(resolved, context);
  const fromStdin = stdinNames(verdict.parsed, resolved.command.stdin);
  return {
    resolved,
    readOnlyProblem: verdict.problem ?? fromStdin.problem,
    readOnlyRule: fromStdin.ruleId ?? verdict.ruleId,
    parsed: verdict.parsed,
    dangerous: dangerousCommandProblem(resolved, cwd),
    // Wrapper arguments too: `xargs -a ~/.ssh/id_rsa echo` reads the key.
    // With a parse, unknown words count only where the spec says they are paths (`echo $(id)` reads nothing).
    pathArguments: [
      ...pathArguments(resolved.command.words.slice(1)).filter((word) => verdict.parsed === undefined || word.value !== undefined),
      ...(verdict.parsed?.paths ?? []),
      ...fromStdin.names,
      ...(resolved.name === "git" ? gitObjectPaths([...resolved.args, ...fromStdin.names]) : []),
      // `git log -p -- ':(top)secrets/key'` reads the key at the repository top, whatever the current directory.
      ...(resolved.name === "git" ? pathspecReads(verdict.parsed?.pathOperands ?? [], context.directories ?? [cwd]) : []),
    ],
    sourceArguments: sourceArguments(resolved),
    recursiveRoots: recursiveRoots(resolved, verdict.parsed, context.directories ?? [cwd]),
    treeReading: treeReading(resolved, verdict.parsed),
  };
}

/** The scripts a command runs in a shell: `bash -c 'x'`, `sh -ec 'x'`, `eval x y`; undefined when only known at run time. */
function shellScripts(resolved: ResolvedCommand): (string | undefined)[] {
  const { name, args } = resolved;
  const final = resolved.layers[resolved.layers.length - 1]!;
  // `git rebase -x CMD`, `watch CMD`, `su -c CMD`, `run0 CMD…`: commands hidden in arguments (policy/nested-commands.ts).
  const hidden = hiddenCommands(
    name,
    (name === "git" ? withoutGitGlobalOptions(final) : final).map((word) => word.value),
  );
  if (hidden.length > 0) return hidden;
  if (name === "eval") return [args.some((word) => word.value === undefined) ? undefined : args.map((word) => word.value).join(" ")];
  if (name === undefined || !SHELLS.has(name)) return [];
  const flag = args.findIndex((word) => /^-[A-Za-z]*c[A-Za-z]*$/.test(word.value ?? "") && !(word.value ?? "").startsWith("--"));
  if (flag >= 0) return [args[flag + 1]?.value];
  return readsScriptFromStdin(args) ? [stdinScript(resolved.command.stdin)] : [];
}

/**
 * A shell with no script operand, or with `-s`, reads its script from stdin (bash(1) "If no
 * arguments remain … commands are read from the standard input"). `-o NAME` takes a value; `-`
 * or `--` end the options. An unknown word may be the script's name or an option: counted as stdin.
 */
function readsScriptFromStdin(args: readonly ShellWord[]): boolean {
  for (let index = 0; index < args.length; index += 1) {
    const value = args[index]!.value;
    if (value === undefined) return true;
    if (/^-[A-Za-z]*s[A-Za-z]*$/.test(value)) return true;
    if (value === "-" || value === "--") return index === args.length - 1;
    if (/^[-+][oO]$/.test(value) || value === "--rcfile" || value === "--init-file") index += 1;
    else if (!/^[-+]/.test(value)) return false;
  }
  return true;
}

/** The script a shell reads from stdin: a here-string or quoted here-doc's text; a pipe or file is only known at run time. */
function stdinScript(stdin: StdinSource | undefined): string | undefined {
  if (stdin === undefined) return "";
  return stdin.kind === "text" ? stdin.text : undefined;
}

/** A command fed by `xargs` reads names from the previous pipeline stage: bound them, or say why not. */
function boundXargsNames(script: ShellScript, commands: AnalysedCommand[]): void {
  commands.forEach((command, index) => {
    if (!command.resolved.appendsArguments || command.readOnlyProblem !== undefined) return;
    const simple = script.commands[index]!;
    const stages = script.pipelines.find((pipeline) => pipeline.indexOf(simple) > 0);
    const upstream = stages && commands[script.commands.indexOf(stages[stages.indexOf(simple) - 1]!)];
    const source = xargsSource(command.resolved, command.parsed, upstream?.resolved, upstream?.parsed);
    command.readOnlyProblem = source.problem;
    if (source.problem) command.readOnlyRule = "readonly.xargs.unbounded-names";
    if (source.roots.length > 0)
      command.treeReading = command.recursiveRoots.length > 0 ? widerReading(command.treeReading, source.reading) : source.reading;
    command.recursiveRoots.push(...source.roots);
  });
}

/**
 * `wc -l $(git ls-files '*.ts')`: an unquoted substitution of one name-listing command hands its
 * names to the command, as `xargs` does. When the lister is read-only and its names bounded, the
 * word is no longer a path only known at run time: the lister's roots are walked instead.
 */
function boundSubstitutedNames(commands: AnalysedCommand[]): void {
  for (const command of commands) {
    if (command.readOnlyProblem !== undefined) continue;
    for (const word of command.pathArguments.filter((candidate) => candidate.value === undefined && candidate.substitution !== undefined)) {
      if (word.text !== `$(${word.substitution})`) continue;
      const lister = commands.find((candidate) => candidate !== command && candidate.resolved.command.text === word.substitution?.trim());
      if (lister === undefined || lister.readOnlyProblem !== undefined) continue;
      const source = listedNames("a command substitution passes", command.resolved.name, command.parsed, lister.resolved, lister.parsed);
      if (source.problem !== undefined) continue;
      command.pathArguments = command.pathArguments.filter((candidate) => candidate !== word);
      command.treeReading = command.recursiveRoots.length > 0 ? widerReading(command.treeReading, source.reading) : source.reading;
      command.recursiveRoots.push(...source.roots);
    }
  }
}

/** `git show HEAD:.env` and `git cat-file -p :.env` read a file as committed: the path after the colon counts. */
function gitObjectPaths(args: ShellWord[]): ShellWord[] {
  return args.flatMap((word) => {
    const match = word.value === undefined ? null : /^[^:\s]*:(?!\/\/)(.+)$/.exec(word.value);
    return match ? [{ ...word, value: match[1]! }] : [];
  });
}

/** An absolute or home path inside a longer word, after a quote, bracket, `=`, `:`, `,` or space. */
const EMBEDDED_PATH = /(?:^|[\s"'(=:,<>])((?:~\/|\/)[^\s"'(),;<>|]*)/g;

function pathArguments(args: ShellWord[]): ShellWord[] {
  const result = operands(args);
  for (const word of args) {
    const value = word.value;
    if (value === undefined || optionName(value) === undefined) continue;
    if (value.startsWith("--") && value.includes("=")) result.push({ ...word, value: value.slice(value.indexOf("=") + 1) });
  }
  for (const word of args) {
    // A value attached to a short option or cluster: `grep -f/etc/shadow`, `date -uf~/.netrc`, `sort -uo/etc/cron.d/x`.
    const value = word.value;
    if (value === undefined) continue;
    const attached = /^-[A-Za-z0-9]+?([./~].*)$/.exec(value);
    if (attached) result.push({ ...word, value: attached[1]! });
    // Paths inside programs and expressions: `awk '… "/etc/shadow"'`, `jq 'include "~/.ssh/x"'`.
    for (const match of value.matchAll(EMBEDDED_PATH)) if (match[1] !== value) result.push({ ...word, value: match[1]! });
  }
  for (const word of result.splice(0)) {
    const value = word.value;
    // dd-style `of=path` and `if=path`
    result.push(value !== undefined && /^(of|if)=/.test(value) ? { ...word, value: value.slice(3) } : word);
  }
  return result;
}

function sourceArguments(resolved: ResolvedCommand): ShellWord[] {
  if (resolved.name === undefined || !COPYING_COMMANDS.has(resolved.name)) return [];
  const files = operands(resolved.args);
  const hasTargetDirectory = resolved.args.some((word) => word.value === "-t" || word.value?.startsWith("--target-directory"));
  return hasTargetDirectory ? files.filter((word) => resolved.args[resolved.args.indexOf(word) - 1]?.value !== "-t") : files.slice(0, -1);
}

function secretVariable(variables: string[]): string | undefined {
  const found = variables.find((name) => SECRET_VARIABLE_NAME.test(name));
  return found && `it expands $${found}, which may hold a credential`;
}

function dangerousAssignment(assignments: Assignment[]): string | undefined {
  const found = assignments.find((assignment) => CODE_LOADING_VARIABLE.test(assignment.name));
  return found && `setting ${found.name} changes which code runs`;
}

/** The tool's cwd, then each `cd`/`pushd` target in order; `cd` to a place only known at run time gives undefined. */
function directoriesOf(commands: ResolvedCommand[], cwd: string): (string | undefined)[] {
  const directories: (string | undefined)[] = [cwd];
  let current: string | undefined = cwd;
  for (const resolved of commands) {
    if (resolved.changesDirectory) directories.push(undefined);
    if (resolved.name !== "cd" && resolved.name !== "pushd" && resolved.name !== "popd") continue;
    const target = operands(resolved.args)[0];
    const otherHome = target?.value !== undefined && /^~[^/]/.test(target.value);
    if (resolved.name === "popd" || target?.value === "-" || otherHome || (target && (target.value === undefined || target.expands)))
      current = undefined;
    else if (!target) current = homedir();
    else current = current === undefined ? undefined : resolve(current, expandHome(target.value!));
    directories.push(current);
  }
  return directories;
}

function firstOf(...reasons: (string | undefined | false | 0)[]): string | undefined {
  return reasons.find((reason): reason is string => typeof reason === "string" && reason.length > 0);
}
