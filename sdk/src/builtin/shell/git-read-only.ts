import { hasOption, mayBecomeOption, operands } from "./command-arguments.js";
import type { ShellWord } from "./shell-word.js";

/**
 * Global options that keep git read-only. `-c`, `--config-env`, `--exec-path`, `--git-dir`,
 * `--work-tree`, `-p`/`--paginate` and the rest can make git run configured programs or act on
 * another repository, so any other global option means "not read-only".
 */
const SAFE_GLOBAL_OPTIONS = new Set(["--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects"]);
const GLOBAL_OPTIONS_WITH_VALUE = new Set(["-C"]);

/** Options that write files or run programs (`--help` opens the configured man viewer), refused on every read-only subcommand. */
const FORBIDDEN_OPTIONS = ["--output", "--ext-diff", "--textconv", "--filters", "--exec", "--upload-pack", "--receive-pack", "--open-files-in-pager", "-O", "--paginate", "--help"];

type SubcommandCheck = (args: ShellWord[]) => string | undefined;

const anyArguments: SubcommandCheck = () => undefined;

/** `git branch` / `git tag` list only with list-style options and no positional name (a name creates a ref). */
const LIST_ONLY = (listOptions: string[], mutatingOptions: string[], valueOptions: string[]): SubcommandCheck => (args) => {
  if (hasOption(args, mutatingOptions)) return "an option that creates, renames or deletes";
  if (!hasOption(args, listOptions) && operands(args, valueOptions).length > 0) return "a name argument creates or changes a ref";
  return undefined;
};

const FIRST_OPERAND_IN = (allowed: string[], allowNone = true): SubcommandCheck => (args) => {
  const first = operands(args)[0];
  if (!first) return allowNone ? undefined : "a subcommand is required";
  return first.value !== undefined && allowed.includes(first.value) ? undefined : `subcommand ${first.text} may modify`;
};

/**
 * Reading one named setting is fine; listing them all (`--list`, `--get-regexp`) prints what
 * `cat .git/config` would (tokens in `http.*.extraheader`, credential URLs), and so does reading a
 * setting whose name looks like a credential.
 */
const CONFIG_READ: SubcommandCheck = (args) => {
  const first = args[0]?.value;
  const mutating = hasOption(args, ["--edit", "-e", "--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section"]);
  const reads = first === "get" || hasOption(args, ["--get", "--get-all", "--get-urlmatch", "--get-color", "--get-colorbool"]);
  // Exact spellings: `--get` must not count as an abbreviation of `--get-regexp`.
  const lists = args.some((word) => /^(--list|-l|--get-regexp|--get-r.*|--regexp|--all|--li.*)$/.test(word.value ?? ""));
  if (first === "list" || lists) {
    return "listing git settings prints the credentials .git/config may hold";
  }
  if (args.some((word) => word.value === undefined || /extraheader|token|password|secret|credential/i.test(word.value))) return "the setting may hold a credential";
  return reads && !mutating ? undefined : "only reading forms of git config";
};

const READ_ONLY_SUBCOMMANDS: Record<string, SubcommandCheck> = {
  status: anyArguments,
  log: anyArguments,
  diff: anyArguments,
  show: anyArguments,
  shortlog: anyArguments,
  whatchanged: anyArguments,
  blame: anyArguments,
  annotate: anyArguments,
  grep: anyArguments,
  "ls-files": anyArguments,
  "ls-tree": anyArguments,
  "cat-file": anyArguments,
  "rev-parse": anyArguments,
  "rev-list": anyArguments,
  describe: anyArguments,
  "name-rev": anyArguments,
  "merge-base": anyArguments,
  "show-ref": anyArguments,
  "for-each-ref": anyArguments,
  "count-objects": anyArguments,
  "diff-tree": anyArguments,
  "diff-files": anyArguments,
  "diff-index": anyArguments,
  "check-ignore": anyArguments,
  "check-attr": anyArguments,
  "var": anyArguments,
  version: anyArguments,
  cherry: anyArguments,
  "show-branch": anyArguments,
  "range-diff": anyArguments,
  submodule: FIRST_OPERAND_IN(["status"]),
  branch: LIST_ONLY(
    ["--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"],
    ["-d", "-D", "-m", "-M", "-c", "-C", "-f", "-u", "-t", "--delete", "--move", "--copy", "--force", "--set-upstream-to", "--unset-upstream", "--edit-description", "--create-reflog", "--track"],
    ["--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "--color", "--abbrev"],
  ),
  tag: LIST_ONLY(
    ["--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"],
    ["-a", "-s", "-u", "-f", "-d", "-m", "-F", "-e", "--annotate", "--sign", "--local-user", "--force", "--delete", "--message", "--file", "--edit"],
    ["--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--format", "-n"],
  ),
  remote: (args) => {
    const first = operands(args)[0]?.value;
    if (first === undefined || first === "show" || first === "get-url") return undefined;
    return `git remote ${first} may modify`;
  },
  stash: FIRST_OPERAND_IN(["list", "show"], false),
  worktree: FIRST_OPERAND_IN(["list"], false),
  reflog: FIRST_OPERAND_IN(["show"]),
  config: CONFIG_READ,
};

/** Undefined when `git <args>` only reads; otherwise why not. */
export function gitReadOnlyProblem(args: ShellWord[]): string | undefined {
  if (args.some(mayBecomeOption)) return "an argument only known at run time";
  if (args.length === 1 && args[0]!.value === "--version") return undefined;
  let index = 0;
  while (index < args.length && (args[index]!.value ?? "").startsWith("-")) {
    const option = args[index]!.value!;
    if (GLOBAL_OPTIONS_WITH_VALUE.has(option)) index += 2;
    else if (SAFE_GLOBAL_OPTIONS.has(option)) index += 1;
    else return `the global option ${option}`;
  }
  const subcommand = args[index]?.value;
  if (subcommand === undefined) return "no subcommand";
  const check = READ_ONLY_SUBCOMMANDS[subcommand];
  if (!check) return `git ${subcommand} is not a read-only subcommand`;
  const rest = args.slice(index + 1);
  if (hasOption(rest, FORBIDDEN_OPTIONS.filter((option) => option !== "-O" || subcommand === "grep"))) return "an option that writes files or runs programs";
  return check(rest);
}

/** `git -C dir --no-pager push` → `git push ...`: global options dropped, so deny rules see the subcommand. */
export function withoutGitGlobalOptions(words: ShellWord[]): ShellWord[] {
  let index = 1;
  while (index < words.length && (words[index]!.value ?? "").startsWith("-")) {
    const option = words[index]!.value!;
    index += GLOBAL_OPTIONS_WITH_VALUE.has(option) || option === "-c" || option === "--git-dir" || option === "--work-tree" || option === "--namespace" || option === "--config-env" ? 2 : 1;
  }
  return [words[0]!, ...words.slice(index)];
}
