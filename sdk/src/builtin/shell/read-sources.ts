import { hasOption, operands } from "./command-arguments.js";
import type { ResolvedCommand } from "./command-wrappers.js";
import type { ShellWord } from "./shell-word.js";

/**
 * What a read-only command reads beyond the paths it names: whole directory trees (`grep -r x ~`
 * reads `~/.ssh`), and file names handed over by `xargs` (`… | base64 -d | xargs cat` reads a
 * file the command line never names).
 */

const RECURSIVE_GREPS = new Set(["grep", "egrep", "fgrep", "zgrep"]);
/** Searchers that always walk the directories they are given. */
const TREE_SEARCHERS = new Set(["rg", "ag", "ack"]);

/** The directories a command reads every file under (empty when it reads no tree). */
export function recursiveRoots(command: ResolvedCommand): ShellWord[] {
  const { name, args } = command;
  if (name === undefined) return [];
  const recursiveGrep = RECURSIVE_GREPS.has(name) && (hasOption(args, ["-r", "-R", "--recursive", "--dereference-recursive"]) || args.some((word) => /^(--directories=)?recurse$/.test(word.value ?? "")));
  const recursiveDiff = name === "diff" && hasOption(args, ["-r", "--recursive"]);
  // `git grep --no-index x ~` searches any directory, hidden files included.
  const gitGrep = name === "git" && args.some((word) => word.value === "grep");
  return recursiveGrep || recursiveDiff || gitGrep || TREE_SEARCHERS.has(name) ? operands(args) : [];
}

/** Commands whose output is a list of names below the paths they were given (their roots). */
const LISTERS = new Set(["find", "fd", "ls", "git", "grep", "egrep", "fgrep", "rg", "ag", "ack", "echo", "printf"]);
/** Commands that only print the names `xargs` gives them, never open them. */
const NAME_ONLY = new Set(["echo", "printf", "basename", "dirname", "true", "false"]);

export interface XargsSource {
  /** The upstream stage's roots: the names xargs passes lie below them. */
  roots: ShellWord[];
  /** Set when the names cannot be bounded (they come from a file, a decoder, another command). */
  problem: string | undefined;
}

/**
 * For a command run by `xargs`: where its file names come from. `find src | xargs wc -l` reads
 * below `src`; `cat list | xargs cat` and `xargs -a list cat` read whatever the list says.
 */
export function xargsSource(command: ResolvedCommand, upstream: ResolvedCommand | undefined): XargsSource {
  if (!command.appendsArguments || NAME_ONLY.has(command.name ?? "")) return { roots: [], problem: undefined };
  const at = command.layers.findIndex((layer) => layer[0]?.value === "xargs" || layer[0]?.value?.endsWith("/xargs"));
  const xargsOptions = at < 0 ? [] : command.layers[at]!.slice(1, command.layers[at]!.length - (command.layers[at + 1]?.length ?? 0));
  if (hasOption(xargsOptions, ["-a", "--arg-file"])) return { roots: [], problem: "xargs reads the names it passes from a file" };
  if (upstream?.name === undefined || !LISTERS.has(upstream.name) || upstream.appendsArguments) {
    return { roots: [], problem: `xargs passes ${command.name} names produced at run time by ${upstream?.name ?? "its input"}` };
  }
  if (upstream.name === "echo" || upstream.name === "printf" || upstream.name === "git") return { roots: [], problem: undefined };
  const roots = operands(upstream.args);
  return { roots: roots.length > 0 ? roots : [{ text: ".", value: ".", expands: false }], problem: undefined };
}
