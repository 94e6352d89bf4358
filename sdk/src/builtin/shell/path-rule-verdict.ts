import { resolve } from "node:path";
import { rulesOfTool, type PermissionContext } from "../../permission/types.js";
import { expandHome, ruleBaseDirectory } from "../../permission/working-directories.js";
import { resolveAsKernel } from "../paths/kernel-path.js";
import { matchesPathRule } from "../paths/path-rules.js";
import type { BashAnalysis } from "./bash-analysis.js";
import { editTargets } from "./edit-targets.js";

/** The file tools whose path rules govern what a Bash line reads, and what it writes (docs/permissions.md#what-a-deny-rule-matches). */
const READ_RULE_TOOLS = ["Read"];
const EDIT_RULE_TOOLS = ["Edit", "Write"];

export interface PathRuleVerdict {
  behavior: "deny" | "ask";
  /** The rule as written, `Read(./.env)`. */
  rule: string;
  path: string;
}

/**
 * A `Read(path)` or `Edit(path)` deny (then ask) rule that names a path the line reads or writes,
 * as written and as the kernel resolves it (`link/../.env`), in every directory the line runs in.
 * Words only known at run time and globs are left to the other checks.
 */
export function pathRuleVerdict(analysis: BashAnalysis, context: PermissionContext, cwd: string): PathRuleVerdict | undefined {
  const named = (tools: readonly string[]) =>
    tools.some((tool) => [context.denyRules, context.askRules].some((rules) => rulesOfTool(rules, tool).some((rule) => rule.ruleContent)));
  // Most contexts have no path rules: then nothing is resolved.
  if (!named(READ_RULE_TOOLS) && !named(EDIT_RULE_TOOLS)) return undefined;
  const base = ruleBaseDirectory(context, cwd);
  const read = new Set<string>();
  for (const directory of analysis.directories) {
    if (directory === undefined) continue;
    const words = [
      ...analysis.commands.flatMap((command) => command.pathArguments),
      ...(analysis.script?.redirects ?? []).filter((redirect) => redirect.kind === "read").flatMap((redirect) => redirect.target ?? []),
    ];
    for (const word of words) {
      if (word.value === undefined || word.expands || word.value === "") continue;
      const written = expandHome(word.value);
      read.add(resolve(directory, written));
      const kernel = resolveAsKernel(written, directory);
      if (kernel !== undefined) read.add(kernel);
    }
  }
  const targets = editTargets(analysis, cwd);
  const edited = new Set([...targets.written, ...targets.removed].flatMap(({ written, resolved }) => [written, resolved]));
  for (const behavior of ["deny", "ask"] as const) {
    const rules = behavior === "deny" ? context.denyRules : context.askRules;
    for (const [tools, paths] of [
      [READ_RULE_TOOLS, read],
      [EDIT_RULE_TOOLS, edited],
    ] as const)
      for (const tool of tools)
        for (const rule of rulesOfTool(rules, tool)) {
          if (!rule.ruleContent) continue;
          const path = [...paths].find((candidate) => matchesPathRule(rule.ruleContent!, candidate, base));
          if (path !== undefined) return { behavior, rule: `${tool}(${rule.ruleContent})`, path };
        }
  }
  return undefined;
}
