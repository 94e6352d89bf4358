import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve, sep } from "node:path";

/** `~` and `~/x` name the user's home, as a shell would expand them. */
export function expandHome(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return path;
}

/**
 * The absolute real path of `path` (relative to `cwd`), following symlinks as far as the path exists:
 * a file about to be created still resolves through its existing (possibly symlinked) parents.
 */
export function resolveRealPath(path: string, cwd: string = process.cwd()): string {
  const absolute = resolve(cwd, expandHome(path));
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      return join(realpathSync(existing), ...missing.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return absolute;
      missing.push(basename(existing));
      existing = parent;
    }
  }
}

/**
 * True when `path` is one of the working directories or inside one, comparing real paths segment by
 * segment (so `/tmp/projectX` is not inside `/tmp/project`). The host cwd always counts.
 */
export function isPathInWorkingDirectories(
  path: string,
  workingDirectories: readonly string[],
  cwd: string = process.cwd(),
): boolean {
  const target = resolveRealPath(path, cwd);
  return [cwd, ...workingDirectories].some((directory) => {
    const root = resolveRealPath(directory, cwd);
    return target === root || target.startsWith(root.endsWith(sep) ? root : root + sep);
  });
}
