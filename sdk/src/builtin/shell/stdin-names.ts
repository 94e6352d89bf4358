import type { ParsedArguments } from "./policy/command-spec.js";
import type { StdinSource } from "./shell-script.js";
import type { ShellWord } from "./shell-word.js";

/** What a command that reads names from stdin reads: the names to check like operands, or why they cannot be known. */
export interface StdinNames {
  names: ShellWord[];
  problem?: string | undefined;
  ruleId?: string | undefined;
}

/**
 * `git cat-file --batch <<< 'HEAD:.env'` prints the committed `.env`, as `git cat-file -p HEAD:.env`
 * does: the names of a static here-string or here-doc become words for the operand checks (one per
 * whitespace-separated token, so `contents HEAD:.env` of `--batch-command` counts too). A pipe or a
 * file feeds names only known at run time.
 */
export function stdinNames(parsed: ParsedArguments | undefined, stdin: StdinSource | undefined): StdinNames {
  const option = parsed?.options.find((candidate) => candidate.spec.stdin === "names");
  if (!parsed || !option || stdin === undefined) return { names: [] };
  const text = stdin.kind === "text" ? stdin.text : undefined;
  if (text === undefined) {
    const source = stdin.kind === "pipe" ? "an earlier command produces" : "are only known";
    return {
      names: [],
      problem: `${option.name} reads the names of what it prints from stdin, which ${source} at run time`,
      ruleId: `readonly.${parsed.id}.stdin.${option.name}`,
    };
  }
  const names = text.split(/\s+/).filter(Boolean);
  return { names: names.map((name) => ({ text: name, value: name, expands: false })) };
}
