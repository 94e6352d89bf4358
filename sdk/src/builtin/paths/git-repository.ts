import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readGitConfig, type GitConfig } from "./git-config-file.js";

/** The repository git finds for a directory, as `git rev-parse --git-dir --git-common-dir --show-toplevel` would. */
export interface GitRepository {
  gitDir: string;
  /** Where config, hooks and modules live (differs from gitDir in a linked worktree). */
  commonDir: string;
  /** Undefined for a bare repository. */
  workTree: string | undefined;
}

/**
 * Walks up from `directory` as git's discovery does: `.git` (a directory, or a file saying
 * `gitdir: path`) in each directory, then the directory itself as a bare repository. Undefined
 * when there is none up to the root. A `.git` that git would not accept is passed over, as git does.
 */
export function findGitRepository(directory: string): GitRepository | undefined {
  for (let current = resolve(directory); ; current = dirname(current)) {
    const dotGit = join(current, ".git");
    const gitDir = linkedGitDir(dotGit) ?? (isGitDirectory(dotGit) ? dotGit : undefined);
    if (gitDir !== undefined) return { gitDir, commonDir: commonDirOf(gitDir), workTree: current };
    if (isGitDirectory(current)) return { gitDir: current, commonDir: commonDirOf(current), workTree: undefined };
    if (dirname(current) === current) return undefined;
  }
}

function linkedGitDir(dotGit: string): string | undefined {
  let text: string;
  try {
    if (!statSync(dotGit, { throwIfNoEntry: false })?.isFile()) return undefined;
    text = readFileSync(dotGit, "utf8");
  } catch {
    return undefined;
  }
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  if (!match) return undefined;
  const target = isAbsolute(match[1]!) ? match[1]! : resolve(dirname(dotGit), match[1]!);
  return isGitDirectory(target) ? target : undefined;
}

/** git's test: a HEAD that names a ref or a commit, plus objects and refs (here or through `commondir`). */
function isGitDirectory(path: string): boolean {
  let head: string;
  try {
    head = readFileSync(join(path, "HEAD"), "utf8");
  } catch {
    return false;
  }
  if (!/^(ref: refs\/|[0-9a-f]{40}\b|[0-9a-f]{64}\b)/.test(head)) return false;
  const common = commonDirOf(path);
  return existsSync(join(common, "objects")) && existsSync(join(common, "refs"));
}

function commonDirOf(gitDir: string): string {
  if (!existsSync(join(gitDir, "commondir"))) return gitDir;
  try {
    const text = readFileSync(join(gitDir, "commondir"), "utf8").trim();
    return isAbsolute(text) ? text : resolve(gitDir, text);
  } catch {
    return gitDir;
  }
}

/** The repository's own settings: `config` and `config.worktree` of the git and common directories, with their includes. */
export function repositoryConfig(repository: GitRepository): GitConfig {
  const files = new Set([
    join(repository.commonDir, "config"),
    join(repository.commonDir, "config.worktree"),
    join(repository.gitDir, "config.worktree"),
  ]);
  const result: GitConfig = { entries: [], problem: undefined };
  for (const file of files) {
    const config = readGitConfig(file);
    result.entries.push(...config.entries);
    result.problem ??= config.problem;
  }
  return result;
}
