import { sep } from "node:path";
import { isPathInWorkingDirectories, resolveRealPath } from "../../permission/working-directories.js";
import { entriesBelow } from "../paths/bounded-walk.js";
import type { BashAnalysis } from "./bash-analysis.js";
import { MAX_EDIT_ENTRIES, type EditPath, type EditTargets } from "./edit-targets.js";

/**
 * Whether a command line's edits may be auto-allowed because they stay inside `roots` (ACCEPT_EDITS
 * and DONT_ASK: the working directories; the network-less sandbox: its writable directories), as
 * docs/command-policy.md#contained-edits lists: every command is read-only or a listed file
 * command, there is at least one edit, no `cd` moves the base directory, every path touched
 * resolves (as the kernel resolves it) inside one of `roots`, nothing lands in a `.git` folder, no
 * root is removed, and the removals delete at most MAX_EDIT_ENTRIES entries. Files that run later
 * never get here: writing one asks first (`fact.runs-later`).
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
  return deletedEntries(targets) <= MAX_EDIT_ENTRIES;
}

/** A `.git` segment between the root and the path: the repository's history and configuration. */
function inGitFolder(path: string, roots: readonly string[]): boolean {
  const root = roots.find((candidate) => path === candidate || path.startsWith(`${candidate}${sep}`)) ?? "";
  return path.slice(root.length).split(sep).includes(".git");
}

/** Files and folders the removals delete, counting a recursive removal's whole tree (bounded). */
function deletedEntries(targets: EditTargets): number {
  let count = 0;
  for (const { resolved, deletes, recursive } of targets.removed) {
    if (!deletes) continue;
    const below = recursive ? entriesBelow(resolved, MAX_EDIT_ENTRIES) : [];
    if (below === undefined) return Number.POSITIVE_INFINITY;
    count += 1 + below.length;
  }
  return count;
}
