import { awkProgramProblem as awkTokensProblem } from "../awk-program.js";
import { sedScriptProblem } from "../sed-script.js";
import type { ParsedArguments } from "./command-spec.js";

/**
 * Checks of the program text that awk, sed, jq and yq run: their options are parsed by the spec,
 * but a program can still call `system()`, write a file or read the environment.
 */

/**
 * `jq -n env`, `jq '$ENV'` and yq's `env(X)`/`strenv(X)`/`envsubst` print environment variables,
 * which may hold credentials (as `printenv` alone does). A field named `.env` is fine.
 */
const PRINTS_ENVIRONMENT = /(^|[^.\w$])(env|strenv|envsubst)\b|\$ENV\b/;

/** jq `import`/`include`, yq `load*()` and jq's `input_filename` tricks read files the command line does not name. */
const LOADS_FILES = /\b(import|include|load\w*)\b/;

/** The program: the values of the options that give one, else the first operand. */
function programs(parsed: ParsedArguments, programOptions: readonly string[]): string[] | undefined {
  const given = programOptions.flatMap((name) => parsed.valuesOf(name));
  const words = given.length > 0 ? given : parsed.operands.slice(0, 1);
  if (words.length === 0 || words.some((word) => word.value === undefined)) return undefined;
  return words.map((word) => word.value!);
}

/**
 * awk programs may call system(), pipe to commands, read files with getline or write them with
 * `print > "f"`: judged from the tokens of the whole program (gawk joins `-e` texts), see awk-program.ts.
 */
export function awkProgramProblem(parsed: ParsedArguments): string | undefined {
  const texts = programs(parsed, ["-e"]);
  if (!texts) return "the awk program is only known at run time";
  return awkTokensProblem(texts.join("\n"));
}

/** sed scripts: `w`, `e`, `r` and the `s///w`/`e` flags write files or run commands. */
export function sedProgramProblem(parsed: ParsedArguments): string | undefined {
  const texts = programs(parsed, ["-e"]);
  if (!texts) return "the sed script is only known at run time";
  for (const script of texts) {
    const problem = sedScriptProblem(script);
    if (problem) return problem;
  }
  return undefined;
}

/** A jq-language expression (jq, yq, gojq inside `gh --jq`): reading the environment or loading files. */
export function queryExpressionProblem(expression: string): string | undefined {
  return PRINTS_ENVIRONMENT.test(expression) || LOADS_FILES.test(expression)
    ? "the expression reads the environment or other files"
    : undefined;
}

/** jq and yq expressions: reading the environment or loading files. */
export function queryProgramProblem(parsed: ParsedArguments): string | undefined {
  for (const word of parsed.operands) {
    if (word.value === undefined) return "the expression is only known at run time";
    const problem = queryExpressionProblem(word.value);
    if (problem) return problem;
  }
  return undefined;
}
