// Shared by the runtimes, which load a tool's code, and the sandbox, which reads its capability
// manifest first: here at the root so that neither folder imports the other back.
import { AgentToolsError } from "./errors.js";

/** Python's side of a failure, when the tool itself raised. */
export interface PythonErrorInfo {
  type: string;
  message: string;
  traceback: string;
}

/** The tool could not be loaded: missing code/function.py or AgentSpaceV1Tool, an import or constructor error. */
export class ToolLoadError extends AgentToolsError {
  readonly python: PythonErrorInfo | undefined;

  constructor(toolId: string, reason: string, options: { python?: PythonErrorInfo; cause?: unknown } = {}) {
    super("TOOL_LOAD_FAILED", `Tool "${toolId}" could not be loaded: ${reason}`, { toolId, cause: options.cause });
    this.python = options.python;
  }
}
