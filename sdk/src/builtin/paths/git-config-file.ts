import { dirname, isAbsolute, resolve } from "node:path";
import { expandHome } from "../../permission/working-directories.js";
import { ParsedFileCache } from "./parsed-file-cache.js";

/**
 * A small reader for git's config syntax (`[section]`, `[section "Sub"]`, `[section.sub]`,
 * case-insensitive section and key names, quoted values, `;`/`#` comments, `\` continuations),
 * following `include.path` and every `includeIf.*.path` whatever its condition (reading more
 * files than git does only makes the checks stricter).
 */
export interface GitConfigEntry {
  /** Lower-cased. */
  section: string;
  /** Case-sensitive, as git keeps it; undefined for `[section]`. */
  subsection: string | undefined;
  /** Lower-cased. */
  name: string;
  /** Undefined for a bare key (`[core] bare`), which git reads as true. */
  value: string | undefined;
  /** The file the entry came from. */
  file: string;
}

export interface GitConfig {
  entries: GitConfigEntry[];
  /** Set when an include cannot be followed (a `%(prefix)` path, a cycle too deep): callers ask. */
  problem: string | undefined;
}

/** Deeper include chains are refused, as git refuses more than 10. */
const MAX_INCLUDE_DEPTH = 10;

const configFiles = new ParsedFileCache<GitConfigEntry[]>((text, path) => parseGitConfig(text, path), []);

/** The entries of a config file and the files it includes; a missing file has none. */
export function readGitConfig(path: string): GitConfig {
  const result: GitConfig = { entries: [], problem: undefined };
  collect(path, result, 0);
  return result;
}

function collect(path: string, result: GitConfig, depth: number): void {
  if (depth > MAX_INCLUDE_DEPTH) {
    result.problem = `the git config includes are nested more than ${MAX_INCLUDE_DEPTH} deep`;
    return;
  }
  const entries = configFiles.get(path);
  for (const entry of entries) {
    result.entries.push(entry);
    const includes = entry.name === "path" && (entry.section === "include" || entry.section === "includeif");
    if (!includes) continue;
    const target = includeTarget(entry.value, path);
    if (target === undefined) result.problem = `the git config ${path} includes ${entry.value ?? "a path"}, which cannot be resolved`;
    else collect(target, result, depth + 1);
  }
}

function includeTarget(value: string | undefined, from: string): string | undefined {
  if (value === undefined || value === "" || value.startsWith("%(") || /^~[^/]/.test(value)) return undefined;
  const expanded = expandHome(value);
  return isAbsolute(expanded) ? expanded : resolve(dirname(from), expanded);
}

const SECTION = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/;
const KEY = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$|[;#])/;

/** Parses config text; lines it does not understand are skipped (git would refuse the file). */
export function parseGitConfig(text: string, file: string): GitConfigEntry[] {
  const entries: GitConfigEntry[] = [];
  let section = "";
  let subsection: string | undefined;
  const lines = text.replace(/^\ufeff/, "").split(/\r?\n/);
  for (let index = 0; index < lines.length; index += 1) {
    let line = lines[index]!.trimStart();
    for (;;) {
      const header = SECTION.exec(line);
      if (!header) break;
      const dotted = header[2] === undefined ? header[1]!.indexOf(".") : -1;
      section = (dotted < 0 ? header[1]! : header[1]!.slice(0, dotted)).toLowerCase();
      subsection =
        header[2] !== undefined ? header[2].replace(/\\(.)/g, "$1") : dotted < 0 ? undefined : header[1]!.slice(dotted + 1).toLowerCase();
      // A key may follow the header on the same line: `[core] pager = x`.
      line = line.slice(header[0].length).trimStart();
    }
    const key = KEY.exec(line);
    if (!key || section === "") continue;
    let raw = key[2] === "=" ? line.slice(line.indexOf("=") + 1) : undefined;
    while (raw !== undefined && /(^|[^\\])(\\\\)*\\$/.test(raw) && index + 1 < lines.length) raw = raw.slice(0, -1) + lines[++index]!;
    entries.push({ section, subsection, name: key[1]!.toLowerCase(), value: raw === undefined ? undefined : configValue(raw), file });
  }
  return entries;
}

/** The value as git reads it: quotes removed, escapes applied, comments outside quotes dropped. */
function configValue(raw: string): string {
  let value = "";
  let quoted = false;
  for (let index = 0; index < raw.length; index += 1) {
    const char = raw[index]!;
    if (char === "\\" && index + 1 < raw.length) {
      const next = raw[++index]!;
      value += next === "n" ? "\n" : next === "t" ? "\t" : next === "b" ? "\b" : next;
    } else if (char === '"') quoted = !quoted;
    else if (!quoted && (char === ";" || char === "#")) break;
    else value += char;
  }
  return value.trim();
}

/** `core.fsmonitor = false` and friends: git's spellings of a boolean. */
export function isGitBoolean(value: string | undefined): boolean {
  return value === undefined || /^(true|false|yes|no|on|off|1|0|)$/i.test(value.trim());
}

/** Settings that carry a credential: `http.extraHeader`, `*.token`, a URL with `user:password@`. */
export function holdsCredential(entries: readonly GitConfigEntry[]): boolean {
  return entries.some((entry) => /extraheader|token|password|secret/.test(entry.name) || /:\/\/[^/\s@]+:[^/\s@]*@/.test(entry.value ?? ""));
}
