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

/**
 * Whether a command prints only names of files below the paths it was given. `echo`/`printf` can
 * spell any path (`echo -e '/root/.a\x77s/…'`), `find -printf`, `ls -l` (symlink targets),
 * `grep` without `-l` and `git log` print text that may hold one, and `--format` options print
 * anything: those are not listers.
 */
function listsNames(command: ResolvedCommand): boolean {
  const { name, args } = command;
  const has = (options: string[]) => hasOption(args, options);
  if (has(["--format"])) return false;
  switch (name) {
    case "find":
      return !has(["-printf", "-ls", "-fprint", "-fprintf", "-fls"]);
    case "fd":
      return !has(["-l", "--list-details"]);
    case "ls":
      return !has(["-l", "-g", "-o", "-n", "-s"]);
    case "grep":
    case "egrep":
    case "fgrep":
      return has(["-l", "-L", "--files-with-matches", "--files-without-match"]);
    case "rg":
      return has(["-l", "--files", "--files-with-matches", "--files-without-match"]);
    case "ag":
    case "ack":
      return has(["-l", "-L", "-g", "-f", "--files-with-matches", "--files-without-matches"]);
    case "git": {
      const subcommand = args.find((word) => !(word.value ?? "-").startsWith("-"))?.value;
      if (subcommand === "ls-files" || subcommand === "ls-tree") return true;
      if (subcommand?.startsWith("diff")) return has(["--name-only", "--name-status"]);
      if (subcommand === "status") return has(["--porcelain", "--short", "-s"]);
      if (subcommand === "grep") return has(["-l", "-L", "--name-only", "--files-with-matches", "--files-without-match"]);
      return false;
    }
    default:
      return false;
  }
}
/** Commands that only print the names `xargs` gives them, never open them. */
const NAME_ONLY = new Set(["echo", "printf", "basename", "dirname", "true", "false"]);

/** The string `xargs -I R` / `-iR` / `--replace[=R]` replaces with each name (`{}` when not given). */
function replacement(options: ShellWord[]): string | undefined {
  for (let index = 0; index < options.length; index += 1) {
    const value = options[index]!.value ?? "";
    if (value === "-I") return options[index + 1]?.value;
    if (/^-I./.test(value)) return value.slice(2);
    if (value === "-i" || value === "--replace") return "{}";
    if (/^-i./.test(value)) return value.slice(2);
    if (value.startsWith("--replace=")) return value.slice("--replace=".length);
  }
  return undefined;
}

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
  // `xargs -I{} cat ~/{}` reads any name below `~`: a word holding the replacement is a root.
  const replaced = replacement(xargsOptions);
  const templates: ShellWord[] = replaced
    ? command.args.filter((word) => word.value?.includes(replaced)).map((word) => ({ ...word, value: undefined, pattern: word.value!.split(replaced).join("*") }))
    : [];
  if (upstream === undefined || upstream.appendsArguments || !listsNames(upstream)) {
    return { roots: [], problem: `xargs passes ${command.name} names produced at run time by ${upstream?.name ?? "its input"}` };
  }
  // git lists paths inside the repository; the others list below their operands (the cwd by default).
  const roots = upstream.name === "git" ? [] : operands(upstream.args);
  return { roots: [...(roots.length > 0 || upstream.name === "git" ? roots : [{ text: ".", value: ".", expands: false }]), ...templates], problem: undefined };
}
