import { homedir } from "node:os";
import { dirname, isAbsolute, relative, sep } from "node:path";
import picomatch from "picomatch";
import { resolveRealPath } from "../../permission/working-directories.js";

/**
 * Path rules for the file tools, in gitignore style (as Claude Code's `Read(...)`/`Edit(...)`):
 * `//abs/**` and `/abs/**` are absolute, `~/x` is under the home directory, anything else is
 * relative to `base` (the project root: `ruleBaseDirectory`); a pattern without a slash (`*.py`,
 * `.env`) matches at any depth. A rule matches the path as written or its real path, so a symlink
 * cannot dodge a deny rule.
 */
export function matchesPathRule(content: string, filePath: string, base: string): boolean {
  const matches = pathRuleMatcher(content, base);
  return [...new Set([filePath, resolveRealPath(filePath, base)])].some(matches);
}

/** The rule as a test of absolute paths taken as they are (no real-path resolution: for tree walks that already hold real paths). */
export function pathRuleMatcher(content: string, base: string): (absolutePath: string) => boolean {
  const matcher = compile(content);
  return (candidate) => {
    if (matcher.absolute) return matcher.test(candidate);
    const relativePath = relative(base, candidate);
    if (relativePath.startsWith("..") || isAbsolute(relativePath)) return false;
    return matcher.test(relativePath.split(sep).join("/"));
  };
}

interface CompiledRule {
  absolute: boolean;
  test: (path: string) => boolean;
}

const compiled = new Map<string, CompiledRule>();

function compile(content: string): CompiledRule {
  let rule = compiled.get(content);
  if (rule) return rule;
  let pattern = content.trim();
  let absolute = false;
  if (pattern.startsWith("//")) [pattern, absolute] = [pattern.slice(1), true];
  else if (pattern.startsWith("~/")) [pattern, absolute] = [`${homedir()}${pattern.slice(1)}`, true];
  else if (pattern.startsWith("/")) absolute = true;
  else if (pattern.startsWith("./")) pattern = pattern.slice(2);
  else if (!pattern.replace(/\/$/, "").includes("/")) pattern = `**/${pattern}`;
  // A directory pattern (`src/`) covers everything below it.
  if (pattern.endsWith("/")) pattern += "**";
  const isMatch = picomatch(pattern, { dot: true });
  const below = picomatch(`${pattern.replace(/\/\*\*$/, "")}/**`, { dot: true });
  rule = { absolute, test: (path) => isMatch(path) || (!pattern.includes("*") && below(path)) };
  if (compiled.size > 500) compiled.clear();
  compiled.set(content, rule);
  return rule;
}

/** `src/**` for a file under the project root (relative, as users write rules), else the absolute parent `/dir/**`. */
export function suggestPathRule(filePath: string, base: string): string {
  const parent = dirname(filePath);
  const relativeParent = relative(base, parent);
  if (relativeParent === "") return "./**";
  if (!relativeParent.startsWith("..") && !isAbsolute(relativeParent)) return `${relativeParent.split(sep).join("/")}/**`;
  return parent === "/" ? "/**" : `${parent}/**`;
}
