import { dirname, isAbsolute, join } from "node:path";
import { linkStat, linkTarget, realPathOrUndefined } from "../../permission/working-directories.js";

/** Symbolic links followed before giving up, as the kernel's own limit (ELOOP). */
const MAX_LINK_HOPS = 40;

/**
 * The path the kernel reaches for `path` (relative to `cwd`): each component looked up on the
 * real filesystem in turn, a symbolic link replaced by its target before any later `..` applies,
 * so `link/..` is the parent of where `link` points, not the directory holding it
 * (docs/command-policy.md#how-a-command-is-decided). Components that do not exist yet are
 * appended as written (a file about to be created, the target of a dangling link). Undefined when
 * the kernel would fail to resolve it: a `..` or more components after a missing one or after a
 * file, or more than 40 links.
 *
 * @example resolveAsKernel("out/../x", "/p") // "/home/u/x" when /p/out -> /home/u/docs
 */
export function resolveAsKernel(path: string, cwd: string): string | undefined {
  const pending = path.split("/");
  let current = isAbsolute(path) ? "/" : (realPathOrUndefined(cwd) ?? cwd);
  let missing = false;
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (missing) return undefined;
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    const stat = missing ? undefined : linkStat(next);
    if (stat === undefined) {
      missing = true;
      current = next;
      continue;
    }
    if (stat.isSymbolicLink()) {
      if ((hops += 1) > MAX_LINK_HOPS) return undefined;
      const target = linkTarget(next);
      if (target === undefined) return undefined;
      if (isAbsolute(target)) current = "/";
      pending.unshift(...target.split("/"));
      continue;
    }
    if (!stat.isDirectory() && pending.some((rest) => rest !== "")) return undefined;
    current = next;
  }
  return current;
}
