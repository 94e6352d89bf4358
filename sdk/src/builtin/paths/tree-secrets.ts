import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { fileStat } from "../../permission/working-directories.js";
import { basename, dirname, join } from "node:path";
import { holdsCredential, readGitConfig } from "./git-config-file.js";
import { findGitRepository } from "./git-repository.js";
import { hardLinkCount, isSecretEntry, type DangerousPathLists } from "./dangerous-paths.js";
import { credentialContentReason } from "./secret-content.js";
import { directoryIgnores, IGNORE_FILE_NAMES, isIgnored, readIgnoreFile, type IgnoreRule } from "./gitignore-rules.js";

/** How a recursive reader walks a tree: what it skips and whether it follows symbolic links. */
export interface TreeReading {
  /** Reads hidden entries (`grep -r` does; `rg` and `ag` skip them unless told otherwise). */
  hidden: boolean;
  /** Skips what `.gitignore` ignores (inside a git repository; `rg`, `ag`, `git grep`). */
  gitignore: boolean;
  followsLinks: boolean;
}

export const READS_EVERYTHING: TreeReading = { hidden: true, gitignore: false, followsLinks: true };

/** A reading that reads whatever either of two does (a command's own walk and the names xargs feeds it). */
export function widerReading(a: TreeReading, b: TreeReading): TreeReading {
  return { hidden: a.hidden || b.hidden, gitignore: a.gitignore && b.gitignore, followsLinks: a.followsLinks || b.followsLinks };
}

/** Entries and depth a check may walk; a bigger tree is judged unknowable (the command asks). */
export const MAX_TREE_ENTRIES = 20_000;
export const MAX_TREE_DEPTH = 24;

type EntryKind = "directory" | "file" | "link";
interface Listing {
  mtimeMs: number;
  /**
   * Each entry with its verdict by name, computed once per version of the directory (a new hard
   * link to an outside secret is a new entry, which changes the mtime), and a plain file's links.
   */
  entries: { name: string; kind: EntryKind; secret: boolean; hardLinks: number }[];
  /** It holds a `.gitignore`, `.ignore` or `.rgignore`. */
  hasIgnoreFile: boolean;
}
/** Directory listings per dangerous-path lists, revalidated by mtime (which changes whenever an entry is added, removed or renamed). */
const listings = new WeakMap<DangerousPathLists, Map<string, Listing>>();
const MAX_CACHED_LISTINGS = 20_000;

/** What else narrows or redirects a walk (both optional). */
export interface TreeSearch {
  /** Only files this accepts are read (a search's glob filter); directories are always walked. */
  reads?: ((absolutePath: string) => boolean) | undefined;
  /** Look for files this matches (a deny rule) instead of secrets. */
  target?: ((absolutePath: string) => boolean) | undefined;
}

/**
 * The first secret a recursive read of `root` would read (a dangerous file or directory by name,
 * a regular file with several hard links, a `.git/config` holding a credential, a symlink that
 * leads to one when links are followed), a reason when the tree is too big to tell (see
 * `isTreeLimit`), or undefined. `node_modules` is walked like any folder (a `.cache` or a linked
 * workspace package in it is read as well): what the reader skips is decided by how it walks
 * (hidden, ignored, links), and a tree too big to walk is the limit. With `search.target`, the
 * first file that matches it instead.
 */
export function treeSecret(root: string, lists: DangerousPathLists, reading: TreeReading, search: TreeSearch = {}): string | undefined {
  const start = realDirectory(root);
  if (start === undefined) return undefined;
  // A negation in an ignore file here or above can re-include hidden and ignored files.
  if ((!reading.hidden || reading.gitignore) && ancestorsNegate(start)) reading = { ...reading, hidden: true, gitignore: false };
  const rules = reading.gitignore ? repositoryRules(start) : [];
  if (rules === undefined) reading = { ...reading, gitignore: false };
  const found = firstAnswer(walk(start, lists, reading, rules ?? [], search, "depth"));
  if (found !== NEGATION) return found;
  const widened = firstAnswer(walk(start, lists, { ...reading, hidden: true, gitignore: false }, [], search, "depth"));
  return widened === NEGATION ? undefined : widened;
}

/** A secret the whole-tree walk found: where, what it is (a link counts as what it leads to), and in words. */
export interface TreeSecretEntry {
  path: string;
  kind: "file" | "directory";
  description: string;
}

/**
 * Every secret below `root` as a reader that follows links reaches it (hidden files included,
 * ignore files not trusted), walked breadth first, so when the tree is bigger than
 * MAX_TREE_ENTRIES or deeper than MAX_TREE_DEPTH the top levels are complete and `limit` says
 * where the walk stopped. The directory listings are cached per directory version (mtime), so a
 * repeat walk of an unchanged tree costs one stat per directory.
 */
export function treeSecretEntries(root: string, lists: DangerousPathLists): { secrets: TreeSecretEntry[]; limit: string | undefined } {
  const secrets: TreeSecretEntry[] = [];
  const start = realDirectory(root);
  if (start === undefined) return { secrets, limit: undefined };
  for (const event of walk(start, lists, READS_EVERYTHING, [], {}, "breadth")) {
    if (event === NEGATION) continue;
    if ("limit" in event) return { secrets, limit: event.limit };
    secrets.push(event);
  }
  return { secrets, limit: undefined };
}

/** The real path of `root` when it is a directory. */
function realDirectory(root: string): string | undefined {
  try {
    const start = realpathSync(root);
    return statSync(start).isDirectory() ? start : undefined;
  } catch {
    return undefined;
  }
}

/** True for a `treeSecret` answer that is a limit reached (the tree is too big to tell), not a path found. */
export function isTreeLimit(answer: string): boolean {
  return !answer.startsWith("/");
}

/** The walk met an ignore file with a negation while trusting ignore files: it starts over without. */
const NEGATION = Symbol("negation");

type WalkEvent = TreeSecretEntry | { limit: string } | typeof NEGATION;

interface PendingDirectory {
  directory: string;
  depth: number;
  rules: IgnoreRule[];
  /** Inside a package npm installed (see isInstalledPackage). */
  installed?: boolean;
  /** Inside a node_modules folder (walked after the rest). */
  modules?: boolean;
}

/** `treeSecret`'s answer: the first secret's description, the limit reached, NEGATION, or undefined when the walk found nothing. */
function firstAnswer(events: Generator<WalkEvent>): string | undefined | typeof NEGATION {
  const first = events.next();
  if (first.done) return undefined;
  const event = first.value;
  return event === NEGATION ? NEGATION : "limit" in event ? event.limit : event.description;
}

/**
 * Walks the tree below `start` and yields each secret it would read (see `treeSecret`), then a
 * limit when it stops early, or NEGATION when an ignore file it trusted has one.
 */
function* walk(
  start: string,
  lists: DangerousPathLists,
  reading: TreeReading,
  initialRules: IgnoreRule[],
  search: TreeSearch,
  order: "depth" | "breadth",
): Generator<WalkEvent> {
  let budget = MAX_TREE_ENTRIES;
  const visited = new Set<string>([start]);
  // The user's own folders first, then what sits in a node_modules: when the budget runs out, it
  // runs out among installed packages, not in the project's own tree.
  const pending: PendingDirectory[] = [{ directory: start, depth: 0, rules: initialRules }];
  const deferred: PendingDirectory[] = [];
  const queue = (entry: PendingDirectory) => (entry.modules ? deferred : pending).push(entry);
  while (pending.length > 0 || deferred.length > 0) {
    const from = pending.length > 0 ? pending : deferred;
    const { directory, depth, rules: inherited, installed: insidePackage, modules } = order === "depth" ? from.pop()! : from.shift()!;
    if (depth > MAX_TREE_DEPTH) {
      yield { limit: `a tree deeper than ${MAX_TREE_DEPTH} levels below ${start}` };
      return;
    }
    const { entries, hasIgnoreFile } = listing(directory, lists);
    const installed = insidePackage === true || isInstalledPackage(directory, entries);
    const own = hasIgnoreFile ? directoryIgnores(directory) : undefined;
    if (own?.negates && (!reading.hidden || reading.gitignore)) {
      yield NEGATION;
      return;
    }
    const rules = reading.gitignore && own && own.rules.length > 0 ? [...inherited, ...own.rules] : inherited;
    for (const { name, kind, secret: secretByName, hardLinks } of entries) {
      if ((budget -= 1) < 0) {
        yield { limit: `more than ${MAX_TREE_ENTRIES} entries below ${start}` };
        return;
      }
      if (!reading.hidden && name.startsWith(".")) continue;
      const path = join(directory, name);
      // Content is judged here, not in the listing: a file's text changes without its folder's mtime.
      const secret = search.target
        ? kind !== "directory" && search.target(path)
        : secretByName || hardLinks > 1 || (kind === "file" && !installed && credentialContentReason(path) !== undefined);
      // A plain file matters only when it is a secret (or the target), and is read.
      if (kind === "file" && (!secret || (search.reads && !search.reads(path)))) continue;
      if (reading.gitignore && rules.length > 0 && isIgnored(path, kind === "directory", rules)) continue;
      if (kind === "directory" && name === ".git") {
        // The internals are git's; only the config may hold a token (`url = https://user:token@…`).
        const config = join(path, "config");
        if (!search.target && holdsCredential(readGitConfig(config).entries)) yield { path: config, kind: "file", description: config };
        continue;
      }
      if (secret && (kind !== "link" || !search.reads || search.reads(path))) {
        const description =
          hardLinks > 1 && !secretByName && !search.target ? `${path} (${hardLinks} hard links: possibly another name for a secret)` : path;
        yield { path, kind: kind === "directory" ? "directory" : "file", description };
        continue;
      }
      if (kind === "directory") queue({ directory: path, depth: depth + 1, rules, installed, modules: modules || name === "node_modules" });
      else if (kind === "link" && reading.followsLinks) {
        const target = followedLink(path, lists, visited, search);
        if (target?.secret)
          yield { path, kind: target.isDirectory ? "directory" : "file", description: `${path} (links to ${target.secret})` };
        else if (target?.directory) queue({ directory: target.directory, depth: depth + 1, rules: [] });
      }
    }
  }
}

/**
 * A package as npm installs it: a real folder holding `package.json` directly below `node_modules`
 * (or its `@scope`). Its files come from the registry's tarball, so inside it only names and hard
 * links count, not content hints (which its test fixtures and docs would trip); a linked workspace
 * package is followed to its own folder, which is the user's and fully checked, as is everything
 * else in `node_modules` (`.cache`, a stray `.env`).
 */
function isInstalledPackage(directory: string, entries: readonly { name: string; kind: EntryKind }[]): boolean {
  const parent = dirname(directory);
  const container = basename(parent).startsWith("@") ? dirname(parent) : parent;
  return basename(container) === "node_modules" && entries.some((entry) => entry.name === "package.json" && entry.kind === "file");
}

function followedLink(
  path: string,
  lists: DangerousPathLists,
  visited: Set<string>,
  search: TreeSearch,
): { secret?: string; isDirectory?: boolean; directory?: string } | undefined {
  let real: string;
  let isDirectory: boolean;
  try {
    real = realpathSync(path);
    isDirectory = statSync(real).isDirectory();
  } catch {
    return undefined;
  }
  const secret = search.target
    ? !isDirectory && (search.target(real) || search.target(path))
    : isSecretEntry(real, lists) || hardLinkCount(real) > 1 || (!isDirectory && credentialContentReason(real) !== undefined);
  if (secret && (isDirectory || !search.reads || search.reads(path))) return { secret: real, isDirectory };
  if (!isDirectory || visited.has(real)) return undefined;
  visited.add(real);
  return { directory: real };
}

function listing(directory: string, lists: DangerousPathLists): Listing {
  const mtimeMs = fileStat(directory)?.mtimeMs;
  if (mtimeMs === undefined) return { mtimeMs: 0, entries: [], hasIgnoreFile: false };
  let cache = listings.get(lists);
  if (cache === undefined) listings.set(lists, (cache = new Map()));
  const cached = cache.get(directory);
  if (cached && cached.mtimeMs === mtimeMs) return cached;
  let names: Dirent[];
  try {
    names = readdirSync(directory, { withFileTypes: true });
  } catch {
    names = [];
  }
  const entries = names.map((entry) => {
    const path = join(directory, entry.name);
    return {
      name: entry.name,
      kind: (entry.isDirectory() ? "directory" : entry.isSymbolicLink() ? "link" : "file") as EntryKind,
      secret: isSecretEntry(path, lists),
      hardLinks: entry.isFile() ? hardLinkCount(path) : 0,
    };
  });
  const result = { mtimeMs, entries, hasIgnoreFile: entries.some((entry) => IGNORE_FILE_NAMES.includes(entry.name)) };
  if (cache.size >= MAX_CACHED_LISTINGS) cache.clear();
  cache.set(directory, result);
  return result;
}

/** True when an ignore file in `directory` or a directory above it holds a negation. */
function ancestorsNegate(directory: string): boolean {
  for (let current = directory; ; current = dirname(current)) {
    if (directoryIgnores(current).negates) return true;
    if (dirname(current) === current) return false;
  }
}

/**
 * The gitignore rules that apply at `start`: the repository's `info/exclude` and every
 * `.gitignore` from the top of the worktree down. Undefined outside a worktree, where ripgrep
 * ignores `.gitignore` files (git grep has no worktree to read).
 */
function repositoryRules(start: string): IgnoreRule[] | undefined {
  const repository = findGitRepository(start);
  if (repository?.workTree === undefined) return undefined;
  const rules = [...readIgnoreFile(join(repository.commonDir, "info", "exclude"), repository.workTree).rules];
  const chain: string[] = [];
  for (let current = dirname(start); current.startsWith(repository.workTree); current = dirname(current)) {
    chain.unshift(current);
    if (current === repository.workTree || dirname(current) === current) break;
  }
  for (const directory of chain) rules.push(...directoryIgnores(directory).rules);
  return rules;
}
