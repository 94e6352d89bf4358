import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { readGitConfig, isGitBoolean, type GitConfigEntry } from "../paths/git-config-file.js";
import { findGitRepository, repositoryConfig, type GitRepository } from "../paths/git-repository.js";
import type { ShellWord } from "./shell-word.js";
import { expandHome } from "../../permission/working-directories.js";

/**
 * A repository's own config can make read-only git subcommands run programs (`core.fsmonitor`
 * on `git status`, `diff.external` on `git diff`, a `pager.log` on `git log`). The user's global
 * and system config are the user's own choice and trusted; the repository's is not: a checkout
 * unpacked from an archive or written by an earlier command brings its own `.git/config`.
 */

/** Subcommands that produce diffs, and so run `diff.external` and diff drivers' `command`/`textconv`. */
const DIFFING = new Set(["log", "show", "diff", "whatchanged", "stash", "range-diff", "status", "blame", "annotate", "grep"]);
/** Subcommands that verify signatures (`log.showSignature`, `%G?` formats) with `gpg.program`. */
const VERIFYING = new Set(["log", "show", "whatchanged", "for-each-ref", "branch", "tag"]);
/** Subcommands that may contact a remote (`git remote show origin`, `git submodule status` on a missing commit). */
const CONTACTING = new Set(["remote", "submodule"]);
/** Subcommands that refresh and rewrite the index (running `post-index-change`) or look into submodules. */
const INDEX_WRITING = new Set(["status", "diff", "describe", "submodule", "stash", "blame", "annotate"]);

type Subcommands = Set<string> | "all";

interface Hazard {
  matches: (entry: GitConfigEntry) => boolean;
  subcommands: Subcommands;
  /** Pagers only run when git pages: `--no-pager`/`-P` turns them off. */
  pager?: true;
}

const key = (section: string, name: string) => (entry: GitConfigEntry) => entry.section === section && entry.name === name;
const program = (section: string, name: string) => (entry: GitConfigEntry) => key(section, name)(entry) && !isGitBoolean(entry.value);

const HAZARDS: Hazard[] = [
  // `core.fsmonitor = true` is git's own daemon; any other value is a program run on every index refresh.
  { matches: program("core", "fsmonitor"), subcommands: "all" },
  // Clean filters run whenever git hashes worktree content (status, diff, blame on changed files).
  { matches: (entry) => entry.section === "filter" && ["clean", "smudge", "process"].includes(entry.name), subcommands: "all" },
  { matches: key("diff", "external"), subcommands: DIFFING },
  {
    matches: (entry) =>
      entry.section === "diff" && entry.subsection !== undefined && (entry.name === "command" || entry.name === "textconv"),
    subcommands: DIFFING,
  },
  { matches: key("core", "pager"), subcommands: "all", pager: true },
  { matches: (entry) => entry.section === "pager" && !isGitBoolean(entry.value), subcommands: "all", pager: true },
  { matches: (entry) => entry.section === "gpg" && entry.name === "program", subcommands: VERIFYING },
  // A partial clone fetches missing objects from its promisor remote during log, show, diff or blame.
  {
    matches: (entry) =>
      (entry.section === "extensions" && entry.name === "partialclone") ||
      (entry.section === "remote" &&
        entry.name === "promisor" &&
        (entry.value === undefined || /^(true|yes|on|1)$/i.test(entry.value.trim()))),
    subcommands: "all",
  },
  // `core.worktree` points the work tree anywhere: status and diff then read files outside the project.
  { matches: key("core", "worktree"), subcommands: "all" },
  // git help config: core.alternateRefsCommand runs "instead of git-for-each-ref" wherever git lists an
  // alternate's refs: `log --alternate-refs`, fetch negotiation, receive-pack. Any subcommand may reach it.
  { matches: key("core", "alternaterefscommand"), subcommands: "all" },
  {
    matches: (entry) =>
      (entry.section === "core" && ["sshcommand", "gitproxy", "askpass"].includes(entry.name)) ||
      (entry.section === "credential" && entry.name === "helper") ||
      (entry.section === "remote" && ["uploadpack", "receivepack", "vcs"].includes(entry.name)) ||
      (entry.section === "protocol" && entry.name === "allow") ||
      (entry.section === "url" && (entry.name === "insteadof" || entry.name === "pushinsteadof")),
    subcommands: CONTACTING,
  },
];

/** Hooks that read-only subcommands can trigger: the index rewrite after a refresh. */
const READ_HOOKS = ["post-index-change"];
/** Submodules inside submodules are followed this deep, then the command asks. */
const MAX_SUBMODULE_DEPTH = 3;

export interface GitInvocation {
  /** The directory git runs in, after `-C`; undefined when it is only known at run time. */
  directory: string | undefined;
  subcommand: string | undefined;
  paging: boolean;
}

/** Where `git [-C dir]... [--no-pager] sub` runs and what it runs, from the words after `git`. */
export function gitInvocation(args: ShellWord[], cwd: string): GitInvocation {
  let directory: string | undefined = cwd;
  let paging = true;
  let index = 0;
  while (index < args.length && (args[index]!.value ?? "").startsWith("-")) {
    const option = args[index]!.value!;
    if (option === "-C") {
      const target = args[index + 1];
      directory =
        directory === undefined || target?.value === undefined || target.expands
          ? undefined
          : target.value === ""
            ? directory
            : resolve(directory, expandHome(target.value));
      index += 2;
      continue;
    }
    if (option === "--no-pager" || option === "-P") paging = false;
    index += 1;
  }
  return { directory, subcommand: args[index]?.value, paging };
}

/** Undefined when the repository `git <args>` runs in (from `cwd`) has no setting that makes this subcommand run a program. */
export function gitRepositoryProblem(args: ShellWord[], cwd: string | undefined): string | undefined {
  if (cwd === undefined) return "git runs in a directory only known at run time, so its repository's settings cannot be checked";
  const invocation = gitInvocation(args, cwd);
  if (invocation.directory === undefined)
    return "git -C names a directory only known at run time, so its repository's settings cannot be checked";
  if (invocation.subcommand === undefined || invocation.subcommand === "version") return undefined;
  // `cp -r vendor/x copy && git -C copy status`: a directory that does not exist yet is made by the
  // line itself, repository settings included, after this check has looked (issue 24, facts taken before the command runs).
  if (!existsSync(invocation.directory))
    return (
      `git runs in ${invocation.directory}, which does not exist yet: ` +
      `the command line may create it, with repository settings of its own`
    );
  const repository = findGitRepository(invocation.directory);
  if (repository === undefined) return undefined;
  return remoteUrlProblem(repository, invocation, args) ?? repositoryProblem(repository, invocation, 0);
}

/** Subcommands that print the repository's remote URLs: `git remote -v`, `get-url`, `show`; `git config` of a `url` key. */
const PRINTS_REMOTE_URLS = new Map<string, (words: readonly string[]) => boolean>([
  ["remote", (words) => words.some((word) => /^(-v|--verbose|get-url|show)$/.test(word))],
  ["config", (words) => words.some((word) => /url|insteadof/i.test(word))],
]);

/** A remote URL that carries a credential: `https://token@host`, `https://user:password@host`, any scheme with a password. */
const URL_CREDENTIAL = /^https?:\/\/[^/\s@]+@|:\/\/[^/\s@]+:[^/\s@]*@/i;

/** Why printing the remote URLs would print a credential (issue 24, class 10: tokens printed from remote URLs). */
function remoteUrlProblem(repository: GitRepository, invocation: GitInvocation, args: ShellWord[]): string | undefined {
  const printsUrls = invocation.subcommand === undefined ? undefined : PRINTS_REMOTE_URLS.get(invocation.subcommand);
  if (printsUrls === undefined || !printsUrls(args.map((word) => word.value ?? ""))) return undefined;
  const entry = repositoryConfig(repository).entries.find(
    (candidate) => /^(url|pushurl)$/.test(candidate.name) && URL_CREDENTIAL.test(candidate.value ?? ""),
  );
  return (
    entry && `the repository setting ${settingName(entry)} in ${entry.file} holds a credential, which git ${invocation.subcommand} prints`
  );
}

function repositoryProblem(repository: GitRepository, invocation: GitInvocation, depth: number): string | undefined {
  const subcommand = invocation.subcommand!;
  const config = repositoryConfig(repository);
  if (config.problem) return config.problem;
  for (const entry of config.entries) {
    const hazard = HAZARDS.find((candidate) => candidate.matches(entry));
    if (!hazard || (hazard.pager && !invocation.paging)) continue;
    if (hazard.subcommands === "all" || hazard.subcommands.has(subcommand)) {
      return `the repository setting ${settingName(entry)} in ${entry.file} makes git ${subcommand} run a program`;
    }
  }
  if (!INDEX_WRITING.has(subcommand)) return undefined;
  const hooks = hooksDirectory(repository, config.entries);
  if (hooks === undefined) return "the repository's core.hooksPath cannot be resolved";
  const hook = READ_HOOKS.find((name) => existsSync(join(hooks, name)));
  if (hook) return `the repository has a ${hook} hook (${join(hooks, hook)}), which git ${subcommand} may run`;
  return submoduleProblem(repository, invocation, depth);
}

function settingName(entry: GitConfigEntry): string {
  return entry.subsection === undefined ? `${entry.section}.${entry.name}` : `${entry.section}.${entry.subsection}.${entry.name}`;
}

/** `core.hooksPath` (relative to the worktree's top, `~` expanded) or the common directory's `hooks`. */
function hooksDirectory(repository: GitRepository, entries: GitConfigEntry[]): string | undefined {
  const setting = entries.filter((entry) => entry.section === "core" && entry.name === "hookspath").at(-1)?.value;
  if (setting === undefined || setting === "") return join(repository.commonDir, "hooks");
  if (setting.startsWith("%(") || /^~[^/]/.test(setting)) return undefined;
  const expanded = expandHome(setting);
  return isAbsolute(expanded) ? expanded : resolve(repository.workTree ?? repository.gitDir, expanded);
}

/**
 * `git status` and `git diff` run git inside every checked-out submodule, where that submodule's
 * own config applies: each path named in `.gitmodules` that holds its own repository is checked too.
 */
function submoduleProblem(repository: GitRepository, invocation: GitInvocation, depth: number): string | undefined {
  if (repository.workTree === undefined) return undefined;
  const modules = readGitConfig(join(repository.workTree, ".gitmodules"));
  if (modules.problem) return modules.problem;
  const paths = modules.entries.filter((entry) => entry.section === "submodule" && entry.name === "path" && entry.value);
  if (paths.length > 0 && depth >= MAX_SUBMODULE_DEPTH) return `submodules are nested more than ${MAX_SUBMODULE_DEPTH} deep`;
  for (const entry of paths) {
    const path = resolve(repository.workTree, entry.value!);
    const submodule = findGitRepository(path);
    if (submodule === undefined || submodule.workTree !== path) continue;
    const problem = repositoryProblem(submodule, { ...invocation, subcommand: "status" }, depth + 1);
    if (problem) return `in submodule ${entry.value}: ${problem}`;
  }
  return undefined;
}
