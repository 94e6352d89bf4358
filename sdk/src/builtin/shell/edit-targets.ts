import { basename, join, resolve } from "node:path";
import { expandHome, fileStat } from "../../permission/working-directories.js";
import { entriesBelow } from "../paths/bounded-walk.js";
import { existingMatches } from "../paths/dangerous-paths.js";
import { resolveAsKernel } from "../paths/kernel-path.js";
import type { AnalysedCommand, BashAnalysis } from "./bash-analysis.js";
import { parseArguments, STRICT_PARSE_CONTEXT } from "./policy/argument-parser.js";
import { editSpec } from "./policy/spec-registry.js";
import type { ShellWord } from "./shell-word.js";

/**
 * Entries one decision walks below a path it removes or copies (`rm -r dir`, `cp -r dir x/`):
 * beyond it the edit is judged unknowable, and a removal of more is not a contained edit
 * (docs/command-policy.md#contained-edits).
 */
export const MAX_EDIT_ENTRIES = 1000;

/** One path an edit touches: as written (made absolute, `..` applied to the text) and as the kernel resolves it. */
export interface EditPath {
  written: string;
  resolved: string;
}

/** What the recognised edits of a command line touch (redirects and the file commands of `policy/specs/file-editors.ts`). */
export interface EditTargets {
  /** Every command that is not read-only is one of the file commands, parsed by its spec (no wrapper, assignment or xargs). */
  onlyFileCommands: boolean;
  /**
   * Paths created or changed: redirect targets, `touch`, `mkdir`, `sed -i` operands, and where
   * `cp`/`mv` land (each source's name inside a target folder, and every entry a folder brings along).
   */
  written: EditPath[];
  /** Paths that disappear from where they are: `rm`/`rmdir` operands (`deletes`), and `mv` sources. */
  removed: (EditPath & { deletes: boolean; recursive: boolean })[];
  /** Why some path cannot be known (a variable, a `..` after a glob, a glob matching too much, a path the kernel cannot resolve). */
  unknown: string | undefined;
}

/**
 * The edits of a command line, every path resolved against `cwd` as the kernel resolves it, globs
 * expanded against the filesystem as bash would (plus the literal word, which bash passes on when
 * nothing matches).
 */
export function editTargets(analysis: BashAnalysis, cwd: string): EditTargets {
  const targets: EditTargets = { onlyFileCommands: true, written: [], removed: [], unknown: undefined };
  const paths = (word: ShellWord): EditPath[] => {
    const found = wordPaths(word, cwd);
    if (typeof found === "string") {
      targets.unknown ??= found;
      return [];
    }
    return found;
  };
  for (const command of analysis.commands) {
    if (command.readOnlyProblem === undefined) continue;
    const parsed = fileCommandParse(command);
    if (parsed === undefined) {
      targets.onlyFileCommands = false;
      continue;
    }
    const name = command.resolved.name!;
    const operands = parsed.pathOperands;
    if (name === "rm" || name === "rmdir") {
      const recursive = name === "rm" && ["-r", "-R", "--recursive"].some((option) => parsed.has(option));
      for (const word of operands) targets.removed.push(...paths(word).map((path) => ({ ...path, deletes: true, recursive })));
    } else if (name === "cp" || name === "mv") {
      const landing = landingPaths(parsed, paths);
      if (landing === undefined) targets.unknown ??= `${name} copies a folder of more than ${MAX_EDIT_ENTRIES} entries`;
      targets.written.push(...(landing ?? []));
      if (name === "mv")
        for (const path of sourcesOf(parsed).flatMap(paths)) targets.removed.push({ ...path, deletes: false, recursive: true });
    } else {
      targets.written.push(...operands.flatMap(paths));
    }
  }
  for (const redirect of analysis.script?.redirects ?? [])
    if (redirect.kind === "write" && redirect.target) targets.written.push(...paths(redirect.target));
  return targets;
}

type Parsed = NonNullable<ReturnType<typeof parseArguments>["parsed"]>;

/** The spec parse of a listed file command, or undefined when it is not one or cannot be judged. */
function fileCommandParse(command: AnalysedCommand): Parsed | undefined {
  const { name, args, wrappers, assignments, privileged, appendsArguments } = command.resolved;
  const spec = name === undefined ? undefined : editSpec(name);
  if (!spec || privileged || appendsArguments || assignments.length > 0 || wrappers.length > 0) return undefined;
  return parseArguments(spec, args, STRICT_PARSE_CONTEXT).parsed;
}

/** `cp`/`mv` sources: every operand with `-t DIR`, else all but the last. */
function sourcesOf(parsed: Parsed): ShellWord[] {
  return parsed.has("-t") ? parsed.pathOperands : parsed.pathOperands.slice(0, -1);
}

/**
 * Where `cp`/`mv` put things: the target itself, or each source's name inside it when it is a
 * folder (`-t`, a trailing slash, an existing folder; never with `-T`), and below that every entry
 * a source folder brings. Undefined when a source folder holds more than MAX_EDIT_ENTRIES.
 */
function landingPaths(parsed: Parsed, paths: (word: ShellWord) => EditPath[]): EditPath[] | undefined {
  const targetWord = parsed.has("-t") ? parsed.valuesOf("-t")[0] : parsed.pathOperands.at(-1);
  if (targetWord === undefined) return [];
  const landing: EditPath[] = [];
  for (const target of paths(targetWord)) {
    const intoFolder = !parsed.has("-T") && (parsed.has("-t") || (targetWord.value ?? "").endsWith("/") || isDirectory(target.resolved));
    for (const source of sourcesOf(parsed).flatMap(paths)) {
      const name = basename(source.resolved);
      const base = intoFolder ? { written: join(target.written, name), resolved: join(target.resolved, name) } : target;
      const below = entriesBelow(source.resolved, MAX_EDIT_ENTRIES);
      if (below === undefined) return undefined;
      landing.push(base, ...below.map((entry) => ({ written: join(base.written, entry), resolved: join(base.resolved, entry) })));
    }
  }
  return landing;
}

/** A word's paths (a glob's current matches and the word itself), or why they cannot be known. */
function wordPaths(word: ShellWord, cwd: string): EditPath[] | string {
  const value = word.value;
  if (value === undefined) return `${word.text} is only known at run time`;
  if (value.startsWith("~") && !value.startsWith("~/") && value !== "~") return `${value} is another user's home`;
  if (word.expands && value.includes("..")) return `${value} climbs with .. after a pattern`;
  const literal = resolve(cwd, expandHome(value));
  const matches = word.expands ? existingMatches(literal) : [];
  if (matches === undefined) return `${value} matches more entries than can be checked`;
  const found: EditPath[] = [];
  for (const written of [...matches, literal]) {
    const resolved = resolveAsKernel(written === literal ? expandHome(value) : written, cwd);
    if (resolved === undefined) return `${value} cannot be resolved (a .. after a missing folder, or a link loop)`;
    found.push({ written, resolved });
  }
  return found;
}

function isDirectory(path: string): boolean {
  return fileStat(path)?.isDirectory() ?? false;
}
