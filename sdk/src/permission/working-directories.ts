import { lstatSync, readlinkSync, realpathSync, statSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { PermissionContext } from "./types.js";

/** `~` and `~/x` name the user's home, as a shell would expand them. */
export function expandHome(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return path;
}

/**
 * The absolute real path of `path` (relative to `cwd`), following symlinks as far as the path exists:
 * a file about to be created still resolves through its existing (possibly symlinked) parents, and a
 * dangling symlink resolves to where it points (writing through it creates that file).
 */
export function resolveRealPath(path: string, cwd: string = process.cwd()): string {
  let absolute = resolve(cwd, expandHome(path));
  for (let hops = 0; hops < MAX_LINK_HOPS; hops++) {
    const missing: string[] = [];
    let existing = absolute;
    let target: string | undefined;
    for (;;) {
      // lstat first: a missing path costs no exception (this runs for every path a decision looks at).
      const stat = linkStat(existing);
      if (stat !== undefined) {
        const real = realPathOrUndefined(existing);
        if (real !== undefined) return join(real, ...missing.reverse());
        target = stat.isSymbolicLink() ? linkTarget(existing) : undefined;
        if (target !== undefined) break;
      }
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      missing.push(basename(existing));
      existing = parent;
    }
    absolute = join(resolve(dirname(existing), target), ...missing.reverse());
  }
  return absolute;
}

/** Symlinks followed by hand (for dangling ones) before giving up, as the kernel's limit. */
const MAX_LINK_HOPS = 40;

/** lstat without exceptions: undefined when missing or not allowed (EACCES, ENOTDIR). */
export function linkStat(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * stat (links followed) without exceptions: undefined for any path the kernel refuses to look up:
 * missing, a component that is a file (`.git/HEAD` in a worktree, whose `.git` is a file), no
 * permission, a loop.
 */
export function fileStat(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** realpath without exceptions: undefined when the path does not (fully) exist. */
export function realPathOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** readlink without exceptions: undefined when `path` is not a symbolic link (or vanished). */
export function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/**
 * True when `path` is one of the working directories or inside one, comparing real paths segment by
 * segment (so `/tmp/projectX` is not inside `/tmp/project`). `cwd` resolves relative paths, and is
 * the only working directory when none is given (never an extra one).
 */
export function isPathInWorkingDirectories(path: string, workingDirectories: readonly string[], cwd: string = process.cwd()): boolean {
  const target = resolveRealPath(path, cwd);
  return (workingDirectories.length > 0 ? workingDirectories : [cwd]).some((directory) => {
    const root = resolveRealPath(directory, cwd);
    return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
  });
}

/** The parts of a permission context that say where the project is. */
export type WorkingSet = Pick<PermissionContext, "workingDirectories" | "projectRoot">;

/**
 * The directories a tool may treat as the project: the engine's working directories plus the
 * tool's own configured cwd; `process.cwd()` only when neither is configured.
 */
export function effectiveWorkingDirectories(context: WorkingSet | undefined, toolCwd?: string): string[] {
  const directories = [...(toolCwd === undefined ? [] : [toolCwd]), ...(context?.workingDirectories ?? [])].map(expandHome);
  return directories.length > 0 ? [...new Set(directories)] : [process.cwd()];
}

/**
 * What relative rule paths resolve against: the context's project root (the settings file's
 * project), else its first working directory, else the tool's configured cwd, else `process.cwd()`.
 */
export function ruleBaseDirectory(context: WorkingSet | undefined, toolCwd?: string): string {
  const base = context?.projectRoot ?? context?.workingDirectories[0] ?? toolCwd ?? process.cwd();
  return resolve(expandHome(base));
}
