import { idProblem } from "../validate/tool-id.js";

export const MAX_SCOPE_PATTERNS = 50;

/**
 * Which tool ids a publisher token may act on: exact ids, or prefixes followed by `*`
 * (`acme-*`; `*` alone is every id).
 *
 *   scopeAllows(["acme-*", "weather"], "acme-search")  // true
 *   scopeAllows(["acme-*", "weather"], "weather-2")    // false
 */
export function scopeAllows(scope: readonly string[], toolId: string): boolean {
  return scope.some((pattern) => (pattern.endsWith("*") ? toolId.startsWith(pattern.slice(0, -1)) : toolId === pattern));
}

/** What is wrong with a scope list as `POST /tokens` received it; undefined when it is valid. */
export function scopeProblem(scope: unknown): string | undefined {
  if (!Array.isArray(scope) || scope.length === 0)
    return 'scope must be a non-empty array of tool ids or prefixes ending in "*", e.g. ["acme-*"]';
  if (scope.length > MAX_SCOPE_PATTERNS) return `scope has ${scope.length} patterns; at most ${MAX_SCOPE_PATTERNS} are allowed`;
  for (const pattern of scope) {
    if (typeof pattern !== "string") return "every scope pattern must be a string";
    if (pattern === "*") continue;
    const id = pattern.endsWith("*") ? pattern.slice(0, -1) : pattern;
    const problem = idProblem(id);
    if (problem !== undefined)
      return `scope pattern ${JSON.stringify(pattern.slice(0, 140))} is not a tool id or a tool-id prefix followed by "*": ${problem}`;
  }
  return undefined;
}
