import { resolveCommand, type ResolvedCommand } from "../command-wrappers.js";
import { parseArguments, type ParseContext } from "./argument-parser.js";
import type { ParsedArguments } from "./command-spec.js";
import { nestedCommandProblem, steeringProblem } from "./directory-facts.js";
import { readOnlySpec } from "./spec-registry.js";

/** Whether one resolved command only reads, the id of the rule that decided, and its parse. */
export interface ReadOnlyVerdict {
  /** `readonly.git.log` when read-only; `readonly.sort.forbid.-o`, `readonly.unknown-program.curl`, … when not. */
  ruleId: string;
  /** Undefined when the command only reads; otherwise why not. */
  problem: string | undefined;
  /** The parse, when the spec accepted every argument. */
  parsed: ParsedArguments | undefined;
}

const notReadOnly = (ruleId: string, problem: string): ReadOnlyVerdict => ({ ruleId: `readonly.${ruleId}`, problem, parsed: undefined });

/**
 * The verdict for one command after its wrappers are peeled: read-only only when a spec lists the
 * program and accepts every argument. Privileged wrappers, environment assignments and `coproc`
 * are never read-only; `xargs` may append words, which the caller bounds (`boundXargsNames`).
 */
export function readOnlyVerdict(command: ResolvedCommand, context: ParseContext): ReadOnlyVerdict {
  const name = command.name;
  if (name === undefined) return notReadOnly("unknown-program", command.opaque ?? "the command name is only known at run time");
  if (command.opaque) return notReadOnly("opaque", command.opaque);
  if (command.privileged) return notReadOnly("privileged", `${name} runs with elevated privileges`);
  if (command.assignments.length > 0)
    return notReadOnly(
      "assignments",
      `environment assignments (${command.assignments.map((a) => a.name).join(", ")}) change how the command runs`,
    );
  if (command.wrappers.includes("coproc")) return notReadOnly("coproc", "coproc is not read-only");
  const spec = readOnlySpec(name);
  if (!spec) return notReadOnly(`unknown-program.${name}`, `${name} is not a program the read-only policy lists`);
  const result = parseArguments(spec, command.args, context);
  if (result.refusal) return { ruleId: result.refusal.ruleId, problem: result.refusal.reason, parsed: undefined };
  const steered = steeringProblem(result.parsed.spec, context.directories);
  if (steered) return notReadOnly(`${result.parsed.id}.project-configuration`, steered);
  // `find -exec grep -l x {} +`: the command find runs must be read-only too, in the directories it runs in.
  for (const option of result.parsed.options) {
    if (!option.nested) continue;
    const nestedContext = option.spec.runsElsewhere ? { ...context, directories: [undefined] } : context;
    const resolved = resolveCommand({ text: option.nested.map((word) => word.text).join(" "), assignments: [], words: option.nested });
    const nested = readOnlyVerdict(resolved, nestedContext);
    const problem = nested.problem ?? nestedCommandProblem(resolved, nestedContext.directories);
    if (problem !== undefined)
      return notReadOnly(
        `${result.parsed.id}.${option.name.replace(/^-+/, "")}.` +
          `${nested.problem === undefined ? "directory" : nested.ruleId.replace(/^readonly\./, "")}`,
        `${option.name} runs a command that is not read-only: ${problem}`,
      );
  }
  return { ruleId: `readonly.${result.parsed.id}`, problem: undefined, parsed: result.parsed };
}
