import { versionRank } from "../entry/version-rank.js";

/** Where the entries after tool id `after` start in entries sorted by tool id (binary search). */
export function indexAfter(entries: readonly { tool_id: string }[], after: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (entries[middle]!.tool_id <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Where the versions below `after` start in versions sorted highest first (binary search by semver
 * rank), so a page continues correctly even when the version it ended on was deleted meanwhile.
 */
export function indexBelowVersion(versions: readonly { version: string }[], after: string): number {
  const rank = versionRank(after);
  let low = 0;
  let high = versions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (versionRank(versions[middle]!.version) >= rank) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The entries from `start` on that `matches` accepts, lazily (a page stops reading once full). */
export function* matchingFrom<T>(entries: readonly T[], start: number, matches: (entry: T) => boolean): Generator<T> {
  for (let index = start; index < entries.length; index++) {
    const entry = entries[index]!;
    if (matches(entry)) yield entry;
  }
}
