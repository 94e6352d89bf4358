import { hasOption, operands } from "./command-arguments.js";
import type { ResolvedCommand } from "./command-wrappers.js";
import type { ShellWord } from "./shell-word.js";
import { posix } from "node:path";
import picomatch from "picomatch";
import { READS_EVERYTHING, type TreeReading } from "../paths/tree-secrets.js";

/**
 * What a read-only command reads beyond the paths it names: whole directory trees (`grep -r x ~`
 * reads `~/.ssh`), and file names handed over by `xargs` (`… | base64 -d | xargs cat` reads a
 * file the command line never names).
 */

const RECURSIVE_GREPS = new Set(["grep", "egrep", "fgrep", "zgrep"]);
/** Searchers that always walk the directories they are given. */
const TREE_SEARCHERS = new Set(["rg", "ag", "ack"]);
const CURRENT_DIRECTORY: ShellWord = { text: ".", value: ".", expands: false };

/** The directories a command reads every file under (empty when it reads no tree). */
export function recursiveRoots(command: ResolvedCommand): ShellWord[] {
  const { name, args } = command;
  if (name === undefined) return [];
  const recursiveGrep = RECURSIVE_GREPS.has(name) && (hasOption(args, ["-r", "-R", "--recursive", "--dereference-recursive"]) || args.some((word) => /^(--directories=)?recurse$/.test(word.value ?? "")));
  const recursiveDiff = name === "diff" && hasOption(args, ["-r", "--recursive"]);
  // `git grep --no-index x ~` searches any directory, hidden files included; `git diff --no-index a b` compares two trees.
  const gitGrep = name === "git" && args.some((word) => word.value === "grep");
  if (name === "git" && args.some((word) => word.value === "diff") && hasOption(args, ["--no-index"])) return operands(args).slice(1);
  if (!(recursiveGrep || recursiveDiff || gitGrep || TREE_SEARCHERS.has(name))) return [];
  if (gitGrep) return gitGrepRoots(args);
  // Every operand counts (a pattern named like a directory only adds a check); with no operand
  // beyond the pattern, searchers read the current directory.
  const roots = operands(args, SEARCH_VALUE_OPTIONS[name] ?? []);
  const patternGiven = hasOption(args, ["-e", "--regexp", "-f", "--file"]) || (name === "rg" && hasOption(args, ["--files", "--type-list"]));
  const beyondPattern = roots.length - (patternGiven || recursiveDiff ? 0 : 1);
  return beyondPattern > 0 ? roots : [...roots, CURRENT_DIRECTORY];
}

/** `git -C dir grep x -- sub`: the pathspecs (or the current directory) below the `-C` directory. */
function gitGrepRoots(args: ShellWord[]): ShellWord[] {
  const at = args.findIndex((word) => word.value === "grep");
  let prefix = ".";
  args.slice(0, at).forEach((word, index, global) => {
    const next = global[index + 1]?.value;
    if (word.value === "-C" && next !== undefined) prefix = below(prefix, next);
  });
  const rest = args.slice(at + 1);
  const roots = operands(rest, SEARCH_VALUE_OPTIONS.git!);
  const beyondPattern = roots.length - (hasOption(rest, ["-e", "-f"]) ? 0 : 1);
  return (beyondPattern > 0 ? roots : [...roots, CURRENT_DIRECTORY]).map((word) =>
    word.value === undefined || prefix === "." ? word : { ...word, value: below(prefix, word.value) },
  );
}

function below(directory: string, path: string): string {
  return path.startsWith("/") || path.startsWith("~") ? path : posix.join(directory, path);
}

/**
 * Options whose value is a separate word, so that value is not taken for a directory (which would
 * hide that the search reads the current directory: `grep -r --exclude-dir src KEY`).
 */
const GREP_VALUES = ["-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--directories", "--devices", "--include", "--exclude", "--exclude-dir", "--exclude-from", "--label", "--binary-files", "--group-separator"];
const SEARCH_VALUE_OPTIONS: Record<string, string[]> = {
  grep: GREP_VALUES,
  egrep: GREP_VALUES,
  fgrep: GREP_VALUES,
  zgrep: GREP_VALUES,
  rg: [
    "-e", "-f", "-g", "-t", "-T", "-m", "-A", "-B", "-C", "-j", "-M", "-E", "-r", "-d", "--regexp", "--file", "--glob", "--iglob", "--type", "--type-not",
    "--max-count", "--replace", "--context", "--after-context", "--before-context", "--max-depth", "--maxdepth", "--encoding", "--max-columns", "--max-filesize",
    "--threads", "--type-add", "--type-clear", "--ignore-file", "--sort", "--sortr", "--colors", "--color", "--path-separator", "--pre-glob",
    "--field-match-separator", "--field-context-separator", "--context-separator", "--dfa-size-limit", "--regex-size-limit", "--engine", "--hyperlink-format", "--pre",
  ],
  ag: ["-A", "-B", "-C", "-G", "-g", "-m", "-p", "-W", "--after", "--before", "--context", "--file-search-regex", "--ignore", "--ignore-dir", "--depth", "--path-to-ignore", "--max-count", "--width", "--pager"],
  ack: ["-A", "-B", "-C", "-m", "-g", "--after-context", "--before-context", "--context", "--max-count", "--ignore-dir", "--noignore-dir", "--ignore-file", "--type", "--type-add", "--type-set", "--output", "--pager"],
  git: ["-e", "-f", "-A", "-B", "-C", "-m", "-O", "--max-depth", "--threads", "--max-count", "--after-context", "--before-context", "--context", "--open-files-in-pager"],
  diff: ["-x", "-X", "-S", "--exclude", "--exclude-from", "--starting-file", "--label", "-I", "--ignore-matching-lines", "-F", "--show-function-line"],
};

/** What the upstream of `xargs` lists: git lists tracked files, the others everything below their operands. */
const GIT_TRACKED: TreeReading = { hidden: true, gitignore: true, followsLinks: false };

/** Positive `rg -g` globs re-include what they match, hidden and ignored files too. */
const RG_GLOB_OPTIONS = new Set(["-g", "--glob", "--iglob"]);
const SECRET_SAMPLES = [".env", ".env.local", ".ssh", ".aws", ".npmrc", ".netrc", ".git", "x.pem", "x.key", "id_rsa"];

/**
 * How a command walks its recursive roots: `grep -r` reads everything (`-R` follows links);
 * `rg` and `ag` skip hidden and gitignored entries unless flags (or a ripgrep config file, which
 * may hold any flag) widen them; `git grep` reads tracked (so not ignored) files of any name.
 */
export function treeReading(command: ResolvedCommand): TreeReading {
  const { name, args } = command;
  const has = (options: string[]) => hasOption(args, options);
  switch (name) {
    case "rg": {
      if (process.env.RIPGREP_CONFIG_PATH) return READS_EVERYTHING;
      const unrestricted = Math.max(0, ...args.map((word) => (/^-[A-Za-z.]+$/.test(word.value ?? "") ? (word.value!.match(/u/g) ?? []).length : 0)));
      const globs = args.filter((word, index) => RG_GLOB_OPTIONS.has(args[index - 1]?.value ?? "") || /^--i?glob=/.test(word.value ?? "")).map((word) => word.value?.replace(/^--i?glob=/, ""));
      const reincludes = globs.some((glob) => glob === undefined || (!glob.startsWith("!") && SECRET_SAMPLES.some((sample) => picomatch(glob, { dot: true, nocase: true })(sample))));
      return {
        hidden: reincludes || unrestricted >= 2 || has(["--hidden"]) || args.some((word) => /^-[A-Za-z]*\.[A-Za-z.]*$/.test(word.value ?? "")),
        gitignore: !reincludes && unrestricted === 0 && !has(["--no-ignore", "--no-ignore-vcs", "--no-ignore-parent", "--no-ignore-exclude"]),
        followsLinks: has(["-L", "--follow"]),
      };
    }
    case "ag": {
      const unrestricted = has(["-u", "--unrestricted"]);
      return { hidden: unrestricted || has(["--hidden"]), gitignore: !unrestricted && !has(["-U", "--skip-vcs-ignores", "-a", "--all-types", "-t", "--all-text"]), followsLinks: has(["-f", "--follow"]) };
    }
    case "git":
      return has(["--no-index", "--no-exclude-standard"]) ? READS_EVERYTHING : GIT_TRACKED;
    case "grep":
    case "egrep":
    case "fgrep":
    case "zgrep":
      return { hidden: true, gitignore: false, followsLinks: has(["-R", "--dereference-recursive"]) };
    default:
      return READS_EVERYTHING;
  }
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
  /** How the upstream stage walks them. */
  reading: TreeReading;
  /** Set when the names cannot be bounded (they come from a file, a decoder, another command). */
  problem: string | undefined;
}

/**
 * For a command run by `xargs`: where its file names come from. `find src | xargs wc -l` reads
 * below `src`; `cat list | xargs cat` and `xargs -a list cat` read whatever the list says.
 */
export function xargsSource(command: ResolvedCommand, upstream: ResolvedCommand | undefined): XargsSource {
  if (!command.appendsArguments || NAME_ONLY.has(command.name ?? "")) return { roots: [], reading: READS_EVERYTHING, problem: undefined };
  const at = command.layers.findIndex((layer) => layer[0]?.value === "xargs" || layer[0]?.value?.endsWith("/xargs"));
  const xargsOptions = at < 0 ? [] : command.layers[at]!.slice(1, command.layers[at]!.length - (command.layers[at + 1]?.length ?? 0));
  if (hasOption(xargsOptions, ["-a", "--arg-file"])) return { roots: [], reading: READS_EVERYTHING, problem: "xargs reads the names it passes from a file" };
  // `xargs -I{} cat ~/{}` reads any name below `~`: a word holding the replacement is a root.
  const replaced = replacement(xargsOptions);
  const templates: ShellWord[] = replaced
    ? command.args.filter((word) => word.value?.includes(replaced)).map((word) => ({ ...word, value: undefined, pattern: word.value!.split(replaced).join("*") }))
    : [];
  if (upstream === undefined || upstream.appendsArguments || !listsNames(upstream)) {
    return { roots: [], reading: READS_EVERYTHING, problem: `xargs passes ${command.name} names produced at run time by ${upstream?.name ?? "its input"}` };
  }
  // Listers name files below their operands (the cwd by default); git names tracked files below the cwd.
  const roots = operands(upstream.args);
  const reading = upstream.name === "git" ? GIT_TRACKED : READS_EVERYTHING;
  return { roots: [...roots, ...(roots.length === 0 || upstream.name === "git" ? [CURRENT_DIRECTORY] : []), ...templates], reading, problem: undefined };
}
