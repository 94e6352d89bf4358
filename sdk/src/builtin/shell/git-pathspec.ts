import { isAbsolute, posix, resolve } from "node:path";
import { findGitRepository } from "../paths/git-repository.js";
import type { ShellWord } from "./shell-word.js";

/**
 * git pathspecs as git reads them (gitglossary(7), "pathspec"): magic after a leading colon, long
 * (`:(top,icase)x`, `:(attr:diff)`, `:(exclude)x`) or short (`:/x` top, `:!x`/`:^x` exclude), and
 * wildcards git expands itself, where `*` matches `/` too unless `:(glob)` says otherwise.
 */

/** What one pathspec may read: a path (a file, or a directory and all below it) under the current directory or the repository top. */
export interface PathspecScope {
  fromTop: boolean;
  path: string;
}

const SHORT_MAGIC: Record<string, string> = { "/": "top", "!": "exclude", "^": "exclude" };
const KNOWN_MAGIC = new Set(["top", "literal", "icase", "glob", "exclude"]);

function splitMagic(value: string): { magic: Set<string>; pattern: string } {
  const magic = new Set<string>();
  if (!value.startsWith(":")) return { magic, pattern: value };
  if (value.startsWith(":(")) {
    const close = value.indexOf(")");
    if (close < 0) return { magic: new Set(["unknown"]), pattern: "" };
    for (const word of value.slice(2, close).split(",")) {
      const name = word.trim();
      // `attr:…` selects files by their attributes, which any file may have; `prefix:` is git's own.
      if (name.startsWith("attr:") || name === "attr") magic.add("attr");
      else if (name.startsWith("prefix:")) continue;
      else magic.add(KNOWN_MAGIC.has(name) ? name : "unknown");
    }
    return { magic, pattern: value.slice(close + 1) };
  }
  let index = 1;
  while (index < value.length && SHORT_MAGIC[value[index]!]) magic.add(SHORT_MAGIC[value[index++]!]!);
  if (value[index] === ":") index += 1;
  return { magic, pattern: value.slice(index) };
}

/** The directory a wildcard pattern stays below (`src/*.ts` → `src`, `*.env` → `.`): git's `*` crosses `/`. */
function staticDirectory(pattern: string): string {
  const wildcard = pattern.search(/[*?[\\]/);
  if (wildcard < 0) return pattern || ".";
  const slash = pattern.lastIndexOf("/", wildcard);
  return slash < 0 ? "." : pattern.slice(0, slash) || "/";
}

/** Undefined for an exclusion, which reads nothing itself. Case-folding and attributes may select any file below the base. */
export function pathspecScope(value: string): PathspecScope | undefined {
  const { magic, pattern } = splitMagic(value);
  if (magic.has("exclude")) return undefined;
  const fromTop = magic.has("top");
  if (magic.has("attr") || magic.has("icase") || magic.has("unknown")) return { fromTop, path: "." };
  if (magic.has("literal")) return { fromTop, path: pattern || "." };
  return { fromTop, path: staticDirectory(pattern) };
}

/**
 * The paths `pathspecs` read, as words for the path checks: relative to `prefix` (the `-C`
 * directory) below the command's directory, or absolute below the repository top of each of
 * `directories` for `top` magic (a word only known at run time where the directory is). Only
 * exclusions read what no pathspec at all would (`.`). Words the shell expands are left as they are.
 */
export function pathspecReads(pathspecs: readonly ShellWord[], directories: readonly (string | undefined)[], prefix = "."): ShellWord[] {
  const reads: ShellWord[] = [];
  let excluded = false;
  for (const word of pathspecs) {
    if (word.value === undefined || word.expands) {
      reads.push(word);
      continue;
    }
    const scope = pathspecScope(word.value);
    if (scope === undefined) excluded = true;
    else reads.push(...scopeWords(word, scope, directories, prefix));
  }
  if (excluded && reads.length === 0) reads.push({ text: ".", value: prefix, expands: false });
  return reads;
}

function scopeWords(word: ShellWord, scope: PathspecScope, directories: readonly (string | undefined)[], prefix: string): ShellWord[] {
  if (isAbsolute(scope.path) || !scope.fromTop) return [{ text: word.text, value: belowDirectory(prefix, scope.path), expands: false }];
  return directories.map((directory) => {
    if (directory === undefined) return { text: word.text, value: undefined, expands: false };
    const start = resolve(directory, prefix);
    const top = findGitRepository(start)?.workTree ?? start;
    return { text: word.text, value: resolve(top, scope.path), expands: false };
  });
}

/** `path` under `directory` (`-C` values chain: `-C a -C b` is `a/b`), unless it is absolute or starts at a home. */
export function belowDirectory(directory: string, path: string): string {
  return isAbsolute(path) || path.startsWith("~") ? path : posix.join(directory, path);
}
