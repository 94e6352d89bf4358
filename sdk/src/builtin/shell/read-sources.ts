import picomatch from "picomatch";
import type { ResolvedCommand } from "./command-wrappers.js";
import type { OptionEffect, ParsedArguments } from "./policy/command-spec.js";
import type { ShellWord } from "./shell-word.js";
import { belowDirectory, pathspecReads } from "./git-pathspec.js";
import { READS_EVERYTHING, type TreeReading } from "../paths/tree-secrets.js";

/**
 * What a read-only command reads beyond the paths it names: whole directory trees (`grep -r x ~`
 * reads `~/.ssh`), and file names handed over by `xargs` (`… | base64 -d | xargs cat` reads a
 * file the command line never names). Everything here works on the spec parse: options are known
 * by their effect (`recursive`, `hidden`, `no-ignore`, `follows-links`, `lists-names`).
 */

const CURRENT_DIRECTORY: ShellWord = { text: ".", value: ".", expands: false };
/** Searchers that always walk the directories they are given. */
const TREE_SEARCHERS = new Set(["rg", "ag", "ack"]);

const hasEffect = (parsed: ParsedArguments, effect: OptionEffect) => parsed.options.some((option) => option.spec.effect === effect);

/**
 * The directories a command reads every file under (empty when it reads no tree). `directories`:
 * where the line may run, for pathspecs relative to the repository top (`git grep x -- ':/secrets'`).
 */
export function recursiveRoots(
  command: ResolvedCommand,
  parsed: ParsedArguments | undefined,
  directories: readonly (string | undefined)[],
): ShellWord[] {
  if (!parsed || command.name === undefined) return [];
  if (parsed.id === "git.diff") return hasEffect(parsed, "recursive") ? pathspecReads(parsed.pathOperands, directories) : [];
  if (parsed.id === "git.grep") return gitGrepRoots(parsed, directories);
  // `grep -R` recurses; `find -L` only follows links while it lists names.
  const followsRecursively = hasEffect(parsed, "follows-links") && parsed.id !== "find";
  const recursive =
    TREE_SEARCHERS.has(command.name) ||
    hasEffect(parsed, "recursive") ||
    followsRecursively ||
    parsed.valuesOf("-d").some((word) => word.value === "recurse");
  if (!recursive) return [];
  // With no directory given, searchers read the current directory.
  return parsed.pathOperands.length > 0 ? parsed.pathOperands : [CURRENT_DIRECTORY];
}

/** `git -C dir grep x -- sub`: what the pathspecs (or the current directory) read below the `-C` directories. */
function gitGrepRoots(parsed: ParsedArguments, directories: readonly (string | undefined)[]): ShellWord[] {
  const prefix = parsed
    .valuesOf("-C")
    .reduce((directory, word) => (word.value === undefined ? directory : belowDirectory(directory, word.value)), ".");
  return pathspecReads(parsed.pathOperands.length > 0 ? parsed.pathOperands : [CURRENT_DIRECTORY], directories, prefix);
}

/** What `git grep` and `git ls-files` read: tracked (so not ignored) files of any name. */
const GIT_TRACKED: TreeReading = { hidden: true, gitignore: true, followsLinks: false };
const SECRET_SAMPLES = [".env", ".env.local", ".ssh", ".aws", ".npmrc", ".netrc", ".git", "x.pem", "x.key", "id_rsa"];

/**
 * How a command walks its recursive roots: `grep -r` reads everything (`-R` follows links);
 * `rg` and `ag` skip hidden and gitignored entries unless flags (or a ripgrep config file, which
 * may hold any flag) widen them; positive `rg -g` globs re-include what they match; `git grep`
 * reads tracked files of any name.
 */
export function treeReading(command: ResolvedCommand, parsed: ParsedArguments | undefined): TreeReading {
  if (!parsed) return READS_EVERYTHING;
  const follows = hasEffect(parsed, "follows-links");
  switch (command.name) {
    case "rg": {
      if (process.env.RIPGREP_CONFIG_PATH && !parsed.has("--no-config")) return READS_EVERYTHING;
      const unrestricted = parsed.options.filter((option) => option.name === "-u").length;
      const globs = [...parsed.valuesOf("-g"), ...parsed.valuesOf("--iglob")].map((word) => word.value);
      const reincludes = globs.some(
        (glob) =>
          glob === undefined ||
          (!glob.startsWith("!") && SECRET_SAMPLES.some((sample) => picomatch(glob, { dot: true, nocase: true })(sample))),
      );
      const noIgnore = parsed.options.some((option) => option.spec.effect === "no-ignore" && option.name !== "-u");
      return {
        hidden: reincludes || unrestricted >= 2 || hasEffect(parsed, "hidden"),
        gitignore: !reincludes && unrestricted === 0 && !noIgnore,
        followsLinks: follows,
      };
    }
    case "ag":
      return {
        hidden: hasEffect(parsed, "hidden") || hasEffect(parsed, "no-ignore"),
        gitignore: !hasEffect(parsed, "no-ignore"),
        followsLinks: follows,
      };
    case "git":
      return hasEffect(parsed, "no-ignore") || parsed.id === "git.diff" ? READS_EVERYTHING : GIT_TRACKED;
    case "grep":
    case "egrep":
    case "fgrep":
    case "zgrep":
      return { hidden: true, gitignore: false, followsLinks: follows };
    default:
      return READS_EVERYTHING;
  }
}

/** `ls` long listings print symbolic link targets, which may spell any path. */
const LONG_LISTING = ["-l", "-g", "-o", "-n", "-s"];

/**
 * Whether a command prints only names of files below the paths it was given. `echo`/`printf` can
 * spell any path, `find -printf`, `ls -l` (symlink targets), `grep` without `-l` and `git log`
 * print text that may hold one, and `--format` options print anything: those are not listers.
 */
function listsNames(command: ResolvedCommand, parsed: ParsedArguments | undefined): boolean {
  if (!parsed || parsed.has("--format") || hasEffect(parsed, "prints-details")) return false;
  switch (parsed.id) {
    case "find":
    case "fd":
      return true;
    case "ls":
      return !LONG_LISTING.some((name) => parsed.has(name));
    case "git.ls-files":
    case "git.ls-tree":
      return true;
    case "git.diff":
    case "git.diff-tree":
    case "git.diff-files":
    case "git.diff-index":
      return parsed.has("--name-only") || parsed.has("--name-status");
    case "git.status":
      return parsed.has("--porcelain") || parsed.has("-s");
    default:
      return command.name !== "git" && hasEffect(parsed, "lists-names");
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
  /** Set when the names cannot be bounded (they come from a file, a decoder, another command), or may be options. */
  problem: string | undefined;
}

/**
 * For a command run by `xargs`: where its file names come from. `find src | xargs wc -l` reads
 * below `src`; `cat list | xargs cat` and `xargs -a list cat` read whatever the list says. Only
 * `find` is trusted to pass names that cannot be options (each starts with its start point);
 * other listers may print a name such as `-delete`.
 */
export function xargsSource(
  command: ResolvedCommand,
  parsed: ParsedArguments | undefined,
  upstream: ResolvedCommand | undefined,
  upstreamParsed: ParsedArguments | undefined,
): XargsSource {
  if (!command.appendsArguments || NAME_ONLY.has(command.name ?? "")) return { roots: [], reading: READS_EVERYTHING, problem: undefined };
  const at = command.layers.findIndex((layer) => layer[0]?.value === "xargs" || layer[0]?.value?.endsWith("/xargs"));
  const xargsOptions = at < 0 ? [] : command.layers[at]!.slice(1, command.layers[at]!.length - (command.layers[at + 1]?.length ?? 0));
  if (xargsOptions.some((word) => word.value === undefined || /^(-a|--arg-file)/.test(word.value)))
    return { roots: [], reading: READS_EVERYTHING, problem: "xargs reads the names it passes from a file" };
  // `xargs -I{} cat ~/{}` reads any name below `~`: a word holding the replacement is a root.
  const replaced = replacement(xargsOptions);
  const templates: ShellWord[] = replaced
    ? command.args
        .filter((word) => word.value?.includes(replaced))
        .map((word) => ({ ...word, value: undefined, pattern: word.value!.split(replaced).join("*") }))
    : [];
  const placedInsideWords = replaced !== undefined && command.args.every((word) => !(word.value ?? "").startsWith(replaced));
  const source = listedNames("xargs passes", command.name, parsed, upstream, upstreamParsed, placedInsideWords);
  return source.problem === undefined ? { ...source, roots: [...source.roots, ...templates] } : source;
}

/**
 * Names a lister prints, handed to a command as its arguments (by `xargs`, or an unquoted
 * `$(git ls-files '*.ts')`): bounded by the lister's roots when it only prints names below them
 * and the command cannot take one for an option (the names start with the root, sit inside a
 * word, or every option of the command is harmless).
 */
export function listedNames(
  handedBy: string,
  consumer: string | undefined,
  parsed: ParsedArguments | undefined,
  upstream: ResolvedCommand | undefined,
  upstreamParsed: ParsedArguments | undefined,
  placedInsideWords = false,
): XargsSource {
  if (upstream === undefined || upstream.appendsArguments || !listsNames(upstream, upstreamParsed)) {
    return {
      roots: [],
      reading: READS_EVERYTHING,
      problem: `${handedBy} ${consumer} names produced at run time by ${upstream?.name ?? "its input"}`,
    };
  }
  const roots = upstreamParsed!.pathOperands;
  // find, fd, grep -r and rg print each name below the start point they were given; ls and git print bare names.
  const prefixesNames =
    upstreamParsed!.id === "find" || (roots.length > 0 && ["fd", "grep", "egrep", "fgrep", "rg", "ag", "ack"].includes(upstreamParsed!.id));
  const namesStartWithRoot = prefixesNames && roots.every((word) => word.value !== undefined && !word.value.startsWith("-"));
  const harmless = parsed?.spec.injectedOptionsHarmless === true;
  if (!namesStartWithRoot && !placedInsideWords && !harmless)
    return { roots: [], reading: READS_EVERYTHING, problem: `${upstream.name} may print a name that ${consumer} takes for an option` };
  const reading = upstream.name === "git" ? GIT_TRACKED : READS_EVERYTHING;
  return { roots: [...roots, ...(roots.length === 0 || upstream.name === "git" ? [CURRENT_DIRECTORY] : [])], reading, problem: undefined };
}
