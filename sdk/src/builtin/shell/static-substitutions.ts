import { realpathSync } from "node:fs";
import { findGitRepository } from "../paths/git-repository.js";
import type { SimpleCommand } from "./shell-script.js";
import type { ShellWord } from "./shell-word.js";

/**
 * Command substitutions whose output the analysis can compute where the command runs, so that
 * `cd "$(git rev-parse --show-toplevel)" && git status` is judged in the directory it goes to.
 * Any other substitution keeps an unknown value.
 */
const EVALUATORS = new Map<string, (cwd: string) => string | undefined>([
  ["pwd", (cwd) => cwd],
  ["pwd -L", (cwd) => cwd],
  ["pwd -P", (cwd) => safeRealpath(cwd)],
  // Outside a work tree git prints nothing, and `cd ""` stays where it is.
  ["git rev-parse --show-toplevel", (cwd) => findGitRepository(cwd)?.workTree ?? ""],
]);

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The command with each computable substitution word replaced by its value. */
export function withStaticSubstitutions(command: SimpleCommand, cwd: string): SimpleCommand {
  if (!command.words.some((word) => word.substitution !== undefined)) return command;
  return { ...command, words: command.words.map((word) => evaluate(word, cwd)) };
}

function evaluate(word: ShellWord, cwd: string): ShellWord {
  if (word.substitution === undefined || word.value !== undefined) return word;
  const value = EVALUATORS.get(word.substitution.replace(/\s+/g, " "))?.(cwd);
  return value === undefined ? word : { ...word, value, pattern: undefined };
}
