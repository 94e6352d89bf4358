import { shellGlobToRegExp } from "../paths/shell-glob.js";

/**
 * Whether an unquoted glob can expand to a word that starts with `-`, which the program would
 * take for an option (`sort *` with a file named `-o.bashrc`, `find *` with one named `-delete`).
 * Judged on the pattern alone, never on what the directory holds now: a file can be created before
 * the command runs. A glob that starts with a literal character, or with a bracket class that
 * excludes `-`, cannot.
 */
export function globMayStartWithDash(pattern: string): boolean {
  if (pattern.startsWith("-") || /^[*?]/.test(pattern)) return true;
  const bracket = /^\[[^\]]+\]/.exec(pattern);
  return bracket !== null && shellGlobToRegExp(bracket[0]).test("-");
}
