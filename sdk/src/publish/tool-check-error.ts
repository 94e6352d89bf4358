import { AgentToolsError } from "../errors.js";

/** One problem found before publishing: the file it is in, where in it, and what to change. */
export interface ToolProblem {
  /** `spec.json`, `code/function.py`, `tool-linux-arm64.zip`, … */
  file: string;
  /** A dotted path in spec.json (`tool_metadata.version`). */
  path?: string;
  line?: number;
  column?: number;
  message: string;
}

/**
 * `agent-tools pack` and `publish` found problems the registry would refuse, or the agent would hit
 * at the first call (docs/authoring.md#checks-before-publishing): every one at once, nothing uploaded.
 */
export class ToolCheckError extends AgentToolsError<"TOOL_CHECK_FAILED"> {
  readonly problems: ToolProblem[];

  constructor(toolId: string | undefined, problems: ToolProblem[]) {
    const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
    super(
      "TOOL_CHECK_FAILED",
      `${toolId === undefined ? "The tool" : `Tool "${toolId}"`} has ${count} to fix before ` +
        `publishing:\n${problems.map((problem) => `  ${describeProblem(problem)}`).join("\n")}`,
      toolId === undefined ? {} : { toolId },
    );
    this.problems = problems;
  }
}

/** `code/function.py:3:9: invalid syntax`, `spec.json (tool_tags): …`: file, then line and column or spec path, then the problem. */
export function describeProblem(problem: ToolProblem): string {
  const where =
    problem.line === undefined
      ? problem.path === undefined
        ? problem.file
        : `${problem.file} (${problem.path})`
      : `${problem.file}:${problem.line}${problem.column === undefined ? "" : `:${problem.column}`}`;
  return `${where}: ${problem.message}`;
}
