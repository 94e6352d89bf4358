import { ArchiveError } from "./archive-error.js";
import type { ArchiveEntryType } from "./archive-entry.js";

/** Links followed while resolving one path before the kernel gives up with ELOOP (MAXSYMLINKS). */
export const MAX_LINK_FOLLOWS = 40;

/** Where a path leads once the archive is unpacked: an archive path (`""` is the root), or out of the tree. */
type Walk = { inside: true; path: string } | { inside: false; how: string; through: string[] } | { loop: true; through: string[] };

/**
 * Resolves every symlink of an archive as the kernel will once it is unpacked: after all entries
 * are known (a link may be defined after its use), component by component from the link's folder,
 * following each link met on the way (its target spliced in, `..` taken after the link, as the
 * kernel does and a textual check does not), at most 40 links. Returns each link's final archive
 * path; throws `ArchiveError` naming the link and the chain when a path leaves the tree (an
 * absolute target, a `..` above the root) or never ends (a loop).
 *
 * A component that is no link (a folder, a file, a missing name) is walked as a name: what a
 * missing name could later become is judged as if it were a folder, which only refuses more.
 * Names are compared case-folded, as macOS and Windows do (names differing only by case are
 * refused before this runs, so folding is never ambiguous).
 */
export function resolveArchiveLinks(
  entries: ReadonlyArray<{ path: string; type: ArchiveEntryType; linkTarget?: string }>,
): Map<string, string> {
  const symlinks = entries.filter((entry) => entry.type === "symlink");
  const links = new Map(symlinks.map((entry) => [entry.path.toLowerCase(), entry.linkTarget ?? ""]));
  const resolved = new Map<string, string>();
  for (const { path, linkTarget: target = "" } of symlinks) {
    const walk = walkPath(links, parentOf(path), target, [path]);
    if ("loop" in walk) {
      throw new ArchiveError(
        "ARCHIVE_LINK_LOOP",
        `The symlink "${path}" never resolves: following it meets more than ${MAX_LINK_FOLLOWS} links (${chain(walk.through, links)}), which the system refuses as a loop. Point each link at a real file inside code/.`,
      );
    }
    if (!walk.inside) {
      throw new ArchiveError(
        "ARCHIVE_LINK_ESCAPE",
        `The symlink "${path}" points to "${target}", which leads ${walk.how} (${chain(walk.through, links)}), outside the archive. Links may only point inside the archive; copy the file in instead.`,
      );
    }
    resolved.set(path, walk.path);
  }
  return resolved;
}

function walkPath(links: ReadonlyMap<string, string>, start: string[], target: string, through: string[]): Walk {
  const folder = [...start];
  const absolute = absoluteTarget(target);
  if (absolute !== undefined) return { inside: false, how: absolute, through };
  const pending = target.split("/");
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (folder.pop() === undefined) return { inside: false, how: "above the archive's root", through };
      continue;
    }
    const path = [...folder, name].join("/");
    const linkTarget = links.get(path.toLowerCase());
    if (linkTarget === undefined) {
      folder.push(name);
      continue;
    }
    if (through.length >= MAX_LINK_FOLLOWS) return { loop: true, through };
    through.push(path);
    const next = absoluteTarget(linkTarget);
    if (next !== undefined) return { inside: false, how: next, through };
    pending.unshift(...linkTarget.split("/"));
  }
  return { inside: true, path: folder.join("/") };
}

/** Where an absolute target leads, or undefined for a relative one (a drive letter or backslash is absolute or a separator to some extractor). */
function absoluteTarget(target: string): string | undefined {
  if (target.startsWith("/")) return `to the absolute path ${target}`;
  if (/^[A-Za-z]:/.test(target) || target.includes("\\")) return `to the Windows path ${target}`;
  return undefined;
}

function parentOf(path: string): string[] {
  return path.split("/").slice(0, -1);
}

/** `a -> "x", b -> "y"`: the links followed, each with its target, the first few only. */
function chain(through: string[], links: ReadonlyMap<string, string>): string {
  const shown = through.slice(0, 6).map((path) => `${path} -> "${links.get(path.toLowerCase())}"`);
  return `${shown.join(", ")}${through.length > 6 ? `, and ${through.length - 6} more` : ""}`;
}
