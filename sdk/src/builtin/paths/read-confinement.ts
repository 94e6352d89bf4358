import { isAbsolute } from "node:path";
import picomatch from "picomatch";
import { isPathInWorkingDirectories } from "../../permission/working-directories.js";
import { dangerousPathReason, type DangerousPathLists } from "./dangerous-paths.js";
import { isTreeLimit, treeSecret, type TreeReading } from "./tree-secrets.js";

/** Where the read tools (Read, Grep, Glob) may read without asking. */
export interface ReadScope {
  /** The project's directories (`effectiveWorkingDirectories`). */
  workingDirectories: readonly string[];
  lists: DangerousPathLists;
  /** Resolves relative paths. */
  cwd: string;
}

/**
 * Why a read is not auto-allowed. A `secret` is a safety ASK that no allow rule silences; a read
 * `outside` the working directories (or of a tree too big to check) is left to rules and the mode.
 */
export interface ReadProblem {
  kind: "secret" | "outside";
  message: string;
}

/** Judges one file (or a search root) on its resolved real path: inside the working directories and not a secret. */
export function pathReadProblem(path: string, scope: ReadScope): ReadProblem | undefined {
  const reason = dangerousPathReason(path, scope.lists, scope.cwd, "read");
  if (reason !== undefined) return { kind: "secret", message: `${path} is ${reason}` };
  if (!isPathInWorkingDirectories(path, scope.workingDirectories, scope.cwd)) {
    return { kind: "outside", message: `${path} is outside the working directories (${scope.workingDirectories.join(", ")})` };
  }
  return undefined;
}

/**
 * Judges a recursive search: its root as `pathReadProblem` does, then every file the walk would
 * read (hidden files, ignore files and links as `reading` says; only files `reads` accepts).
 */
export function treeReadProblem(
  root: string,
  scope: ReadScope,
  reading: TreeReading,
  reads?: (path: string) => boolean,
): ReadProblem | undefined {
  const own = pathReadProblem(root, scope);
  if (own !== undefined) return own;
  const found = treeSecret(root, scope.lists, reading, { reads });
  if (found === undefined) return undefined;
  if (isTreeLimit(found)) return { kind: "outside", message: `cannot check what a search of ${root} reads: ${found}` };
  return { kind: "secret", message: `a search of ${root} would read ${found}` };
}

/**
 * For a glob pattern relative to `root`: the directory it starts from (its literal leading
 * segments, `..` applied), or undefined when a `..` comes after a wildcard (it can climb anywhere).
 */
export function globBaseDirectory(root: string, pattern: string): string | undefined {
  const segments = (isAbsolute(pattern) ? pattern : `${root}/${pattern}`).split("/");
  const literal: string[] = [];
  let wild = false;
  for (const segment of segments) {
    if (!wild && picomatch.scan(segment).isGlob) wild = true;
    if (wild) {
      if (segment === "..") return undefined;
      continue;
    }
    literal.push(segment);
  }
  return literal.join("/") || "/";
}

/**
 * The files a ripgrep `--glob` filter lets through, or undefined when it lets every file through
 * (no filter, or only exclusions, which are ignored here to stay on the side of reading more).
 */
export function ripgrepGlobFilter(globs: readonly string[], root: string): ((path: string) => boolean) | undefined {
  const positive = globs.filter((glob) => !glob.startsWith("!"));
  if (positive.length === 0) return undefined;
  const byName = positive.filter((glob) => !glob.includes("/"));
  const byPath = positive.filter((glob) => glob.includes("/")).map((glob) => glob.replace(/^\//, ""));
  const nameMatches = byName.length > 0 ? picomatch(byName, { dot: true }) : () => false;
  const pathMatches = byPath.length > 0 ? picomatch(byPath, { dot: true }) : () => false;
  return (path) => {
    const name = path.slice(path.lastIndexOf("/") + 1);
    const below = path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
    return nameMatches(name) || pathMatches(below);
  };
}
