import { ArchiveError } from "./archive-error.js";
import type { ArchiveEntryType } from "./archive-entry.js";

/** Links followed while resolving one path before the kernel gives up with ELOOP (MAXSYMLINKS). */
export const MAX_LINK_FOLLOWS = 40;

/** A folder, file or link of the archive's tree; names the archive does not hold are "virtual" nodes made while walking. */
interface TreeNode {
  name: string;
  parent: TreeNode | undefined;
  /** By case-folded name. */
  children: Map<string, TreeNode>;
  /** A symlink's entry path and target. */
  link?: { path: string; target: string };
  /** A link's resolution once known: the node it leads to and how many links that follows (itself included). */
  resolution?: "resolving" | { node: TreeNode; follows: number; through: TreeNode[] };
}

const NO_CHILDREN: ReadonlyMap<string, TreeNode> = new Map();

/**
 * Resolves every symlink of an archive as the kernel will once it is unpacked: after all entries
 * are known (a link may be defined after its use), component by component from the link's folder,
 * following each link met on the way (`..` taken after the link, as the kernel does and a textual
 * check does not), at most 40 links in all. Returns each link's final archive path (`""` is the
 * root); throws `ArchiveError` naming the link and the chain when it leaves the tree (an absolute
 * target, a `..` above the root) or never ends (a loop).
 *
 * A name that is no link (a folder, a file, a name the archive does not hold) is walked as a name:
 * what a missing name could later become is judged as if it were a folder, which only refuses
 * more. Names are compared case-folded, as macOS and Windows do (names differing only by case are
 * refused before this runs, so folding is never ambiguous). Each link is resolved once and reused
 * (its resolution does not depend on how it is reached), so the work stays linear in the targets.
 */
export function resolveArchiveLinks(
  entries: ReadonlyArray<{ path: string; type: ArchiveEntryType; linkTarget?: string }>,
): Map<string, string> {
  const root: TreeNode = { name: "", parent: undefined, children: new Map() };
  const links: TreeNode[] = [];
  for (const entry of entries) {
    let node = root;
    for (const name of entry.path.split("/")) {
      const key = name.toLowerCase();
      let next = node.children.get(key);
      if (next === undefined) node.children.set(key, (next = { name, parent: node, children: new Map() }));
      node = next;
    }
    if (entry.type !== "symlink") continue;
    node.link = { path: entry.path, target: entry.linkTarget ?? "" };
    links.push(node);
  }
  return new Map(links.map((link) => [link.link!.path, pathOf(resolveLink(link, { top: link, trail: [] }).node)]));
}

/** The link being vetted (named in errors) and every link followed so far, in order. */
interface Walk {
  top: TreeNode;
  trail: TreeNode[];
}

function resolveLink(link: TreeNode, walk: Walk): { node: TreeNode; follows: number; through: TreeNode[] } {
  const { target } = link.link!;
  if (link.resolution === "resolving" || walk.trail.length >= MAX_LINK_FOLLOWS) throw loopError(walk, link);
  if (link.resolution !== undefined) {
    walk.trail.push(...link.resolution.through);
    return link.resolution;
  }
  link.resolution = "resolving";
  walk.trail.push(link);
  const through: TreeNode[] = [link];
  const absolute = absoluteTarget(target);
  if (absolute !== undefined) throw escapeError(walk, absolute);
  let node = link.parent!;
  let follows = 1;
  for (const name of target.split("/")) {
    if (name === "" || name === ".") continue;
    if (name === "..") {
      if (node.parent === undefined) throw escapeError(walk, "above the archive's root");
      node = node.parent;
      continue;
    }
    const next = node.children.get(name.toLowerCase()) ?? { name, parent: node, children: NO_CHILDREN as Map<string, TreeNode> };
    if (next.link === undefined) {
      node = next;
      continue;
    }
    const inner = resolveLink(next, walk);
    follows += inner.follows;
    through.push(...inner.through);
    if (follows > MAX_LINK_FOLLOWS) throw loopError(walk, next);
    node = inner.node;
  }
  link.resolution = { node, follows, through };
  return link.resolution;
}

/**
 * Where an absolute target leads, or undefined for a relative one (a drive letter or backslash is absolute or
 * a separator to some extractor).
 */
function absoluteTarget(target: string): string | undefined {
  if (target.startsWith("/")) return `to the absolute path ${target}`;
  if (/^[A-Za-z]:/.test(target) || target.includes("\\")) return `to the Windows path ${target}`;
  return undefined;
}

function escapeError({ top, trail }: Walk, how: string): ArchiveError {
  const { path, target } = top.link!;
  return new ArchiveError(
    "ARCHIVE_LINK_ESCAPE",
    `The symlink "${path}" points to "${target}", which leads ${how} (${chain(trail)}), ` +
      `outside the archive. Links may only point inside the archive; copy the file in instead.`,
  );
}

function loopError({ top, trail }: Walk, next: TreeNode): ArchiveError {
  return new ArchiveError(
    "ARCHIVE_LINK_LOOP",
    `The symlink "${top.link!.path}" never resolves: following it meets more than ${MAX_LINK_FOLLOWS} links ` +
      `(${chain([...trail, next])}), which the system refuses as a loop. Point each link at a real file inside code/.`,
  );
}

/** `a -> "x", b -> "y"`: the links followed, each with its target, the first few only. */
function chain(through: TreeNode[]): string {
  const shown = through.slice(0, 6).map((node) => `${node.link!.path} -> "${node.link!.target}"`);
  return `${shown.join(", ")}${through.length > 6 ? `, and ${through.length - 6} more` : ""}`;
}

function pathOf(node: TreeNode): string {
  const names: string[] = [];
  for (let current: TreeNode | undefined = node; current?.parent !== undefined; current = current.parent) names.push(current.name);
  return names.reverse().join("/");
}
