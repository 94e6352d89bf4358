import { fileStat } from "../../permission/working-directories.js";
import { dirname, join, relative, sep } from "node:path";
import { findGitRepository } from "./git-repository.js";
import { directoryIgnores, isIgnored, readIgnoreFile, type IgnoreRule } from "./gitignore-rules.js";

/**
 * Whether git ignores `path` (an absolute, resolved path): it, or a folder above it inside the
 * work tree, matches the work tree's `.gitignore` files or `.git/info/exclude`. What git ignores
 * is what a build or an install makes again (`node_modules`, `dist`), so deleting it loses no work
 * (docs/command-policy.md#contained-edits). Errs towards "not ignored": outside a work tree, and
 * wherever an ignore file holds a negation that could re-include the path.
 */
export function isGitIgnored(path: string): boolean {
  const repository = findGitRepository(dirname(path));
  const workTree = repository?.workTree;
  if (repository === undefined || workTree === undefined) return false;
  const below = relative(workTree, path);
  if (below === "" || below.startsWith("..")) return false;
  const exclude = readIgnoreFile(join(repository.commonDir, "info", "exclude"), workTree);
  if (exclude.negates) return false;
  const rules: IgnoreRule[] = [...exclude.rules];
  let folder = workTree;
  for (const name of below.split(sep)) {
    const ignores = directoryIgnores(folder);
    if (ignores.negates) return false;
    rules.push(...ignores.rules);
    const current = join(folder, name);
    if (name === ".git") return false;
    if (isIgnored(current, fileStat(current)?.isDirectory() ?? false, rules)) return true;
    folder = current;
  }
  return false;
}
