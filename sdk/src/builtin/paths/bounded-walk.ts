import { readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The entries below `directory` (relative paths, links not followed, as `rm -r` and `cp -r` treat
 * them), or undefined when there are more than `limit`: a bound on what one decision reads. A
 * path that is not a directory has none.
 */
export function entriesBelow(directory: string, limit: number): string[] | undefined {
  const found: string[] = [];
  const pending = [""];
  while (pending.length > 0) {
    const relative = pending.pop()!;
    let entries: { name: string; isDirectory(): boolean }[];
    try {
      entries = readdirSync(join(directory, relative), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = relative === "" ? entry.name : join(relative, entry.name);
      found.push(path);
      if (found.length > limit) return undefined;
      if (entry.isDirectory()) pending.push(path);
    }
  }
  return found;
}
