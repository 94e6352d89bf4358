import { sep } from "node:path";
import { isPathInWorkingDirectories, resolveRealPath } from "../../permission/working-directories.js";
import { entriesBelow } from "../paths/bounded-walk.js";
import { isGitIgnored } from "../paths/git-ignored.js";
import type { BashAnalysis } from "./bash-analysis.js";
import { MAX_EDIT_ENTRIES, type EditPath, type EditTargets } from "./edit-targets.js";

/**
 * Whether a command line's edits may be auto-allowed because they stay inside `roots` (ACCEPT_EDITS
 * and DONT_ASK: the working directories; the network-less sandbox: its writable directories), as
 * docs/command-policy.md#contained-edits lists: every command is read-only or a listed file
 * command, there is at least one edit, no `cd` moves the base directory, every path touched
 * resolves (as the kernel resolves it) inside one of `roots`, nothing lands in a `.git` folder, no
 * root is removed, and the removals delete at most MAX_DELETED_ENTRIES entries git does not
 * ignore. Files that run later never get here: writing one asks first (`fact.runs-later`).
 */
export function editsStayInside(analysis: BashAnalysis, targets: EditTargets, roots: readonly string[]): boolean {
  const script = analysis.script;
  if (analysis.directories.length > 1 || script === undefined) return false;
  if (script.statements.length > 0 || script.constructs.some((construct) => construct.type === "function")) return false;
  if (!targets.onlyFileCommands || targets.unknown !== undefined) return false;
  const touched: EditPath[] = [...targets.written, ...targets.removed];
  if (touched.length === 0) return false;
  const realRoots = roots.map((root) => resolveRealPath(root));
  const inside = ({ resolved }: EditPath) =>
    isPathInWorkingDirectories(resolved, realRoots, realRoots[0]) && !inGitFolder(resolved, realRoots);
  if (!touched.every(inside)) return false;
  // Removing a root (or a folder holding one) destroys the whole working directory.
  if (targets.removed.some(({ resolved }) => realRoots.some((root) => root === resolved || root.startsWith(`${resolved}${sep}`))))
    return false;
  return deletedEntries(targets) <= MAX_DELETED_ENTRIES;
}

/**
 * Entries a contained edit may delete, counting what git ignores as none: more is somebody's work
 * that no build makes again (`rm -rf src`), and a sandbox cannot give it back, so it asks.
 * `rm -rf node_modules` or `dist` in a repository that ignores them stays contained.
 */
export const MAX_DELETED_ENTRIES = 20;

/** A `.git` segment between the root and the path: the repository's history and configuration. */
function inGitFolder(path: string, roots: readonly string[]): boolean {
  const root = roots.find((candidate) => path === candidate || path.startsWith(`${candidate}${sep}`)) ?? "";
  return path.slice(root.length).split(sep).includes(".git");
}

/** Files and folders the removals delete that git does not ignore, counting a recursive removal's whole tree (bounded). */
function deletedEntries(targets: EditTargets): number {
  let count = 0;
  for (const { resolved, deletes, recursive } of targets.removed) {
    if (!deletes || isGitIgnored(resolved)) continue;
    const below = recursive ? entriesBelow(resolved, MAX_EDIT_ENTRIES) : [];
    if (below === undefined) return Number.POSITIVE_INFINITY;
    count += 1 + below.length;
  }
  return count;
}
