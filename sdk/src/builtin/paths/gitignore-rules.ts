import { basename, dirname, join, sep } from "node:path";
import picomatch from "picomatch";
import { ParsedFileCache } from "./parsed-file-cache.js";

/**
 * Enough of gitignore to tell whether git and ripgrep skip a path, erring towards "not skipped":
 * callers give up on ignore files altogether when one holds a negation (`!.env`), because a
 * negation can re-include a file (ripgrep even re-includes hidden files that way).
 */
export interface IgnoreRule {
  /** The directory of the file the rule came from; patterns are relative to it. */
  base: string;
  /** Only directories match (`build/`). */
  directoryOnly: boolean;
  /** A pattern with a slash matches the path below `base`; otherwise it matches any name below it. */
  anchored: boolean;
  matches: (path: string) => boolean;
}

export interface IgnoreFile {
  rules: IgnoreRule[];
  /** A `!pattern` line: the file can re-include what others ignore. */
  negates: boolean;
}

const ignoreFiles = new ParsedFileCache<IgnoreFile>((text, path) => parseIgnoreFile(text, dirname(path)), { rules: [], negates: false });

/** The rules of one ignore file (`.gitignore`, `.ignore`; none when it is missing), patterns relative to `base`. */
export function readIgnoreFile(path: string, base: string): IgnoreFile {
  const file = ignoreFiles.get(path);
  return file.rules.every((rule) => rule.base === base) ? file : { ...file, rules: file.rules.map((rule) => ({ ...rule, base })) };
}

function parseIgnoreFile(text: string, base: string): IgnoreFile {
  const file: IgnoreFile = { rules: [], negates: false };
  for (const raw of text.split(/\r?\n/)) {
    // Trailing spaces are dropped unless escaped.
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("!")) {
      file.negates = true;
      continue;
    }
    const directoryOnly = line.endsWith("/");
    if (directoryOnly) line = line.slice(0, -1);
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    if (line === "") continue;
    // gitignore has no braces or extglobs: `{a,b}` and `+(x)` are literal names there.
    const matches = picomatch(line, { dot: true, nobrace: true, noextglob: true, nonegate: true });
    file.rules.push({ base, directoryOnly, anchored, matches });
  }
  return file;
}

/** True when one of the rules ignores the path (rules from directories above it only). */
export function isIgnored(path: string, isDirectory: boolean, rules: readonly IgnoreRule[]): boolean {
  const name = basename(path);
  return rules.some((rule) => {
    if (rule.directoryOnly && !isDirectory) return false;
    if (!path.startsWith(`${rule.base}${sep}`)) return false;
    return rule.anchored
      ? rule.matches(
          path
            .slice(rule.base.length + 1)
            .split(sep)
            .join("/"),
        )
      : rule.matches(name);
  });
}

/** The ignore file names ripgrep and git read in every directory. */
export const IGNORE_FILE_NAMES = [".gitignore", ".ignore", ".rgignore"];

/** The rules of a directory's `.gitignore`, and whether any of its ignore files negates. */
export function directoryIgnores(directory: string): IgnoreFile {
  const gitignore = readIgnoreFile(join(directory, ".gitignore"), directory);
  const negates = gitignore.negates || IGNORE_FILE_NAMES.slice(1).some((name) => readIgnoreFile(join(directory, name), directory).negates);
  return { rules: gitignore.rules, negates };
}
