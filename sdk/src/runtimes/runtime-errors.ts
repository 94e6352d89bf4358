import { AgentToolsError } from "../errors.js";
import type { PythonErrorInfo } from "../tool-load-error.js";

/** The tool ran and failed: a Python exception (with traceback) or a binary's non-zero exit (with stderr). */
export class ToolExecutionError extends AgentToolsError {
  readonly python: PythonErrorInfo | undefined;
  readonly exitCode: number | undefined;
  readonly stderr: string | undefined;

  constructor(toolId: string, reason: string, options: { python?: PythonErrorInfo; exitCode?: number; stderr?: string } = {}) {
    super("TOOL_EXECUTION_FAILED", `Tool "${toolId}" failed: ${reason}`, { toolId });
    this.python = options.python;
    this.exitCode = options.exitCode;
    this.stderr = options.stderr;
  }
}

/** The input cannot be sent: it is not JSON-serialisable (a BigInt, a cycle). Nothing was sent to the tool. */
export class ToolInputError extends AgentToolsError {
  constructor(toolId: string, reason: string, cause?: unknown) {
    super("TOOL_INPUT_NOT_SERIALISABLE", `Input for tool "${toolId}" is not JSON-serialisable: ${reason}`, { toolId, cause });
  }
}

/**
 * The input does not match the tool's input schema (`tool_api_spec.entrypoints.execute.input`), checked
 * before anything starts, by the validator a Toolkit and the MCP server use: nothing ran.
 * `problems` lists every mismatch (`input must have required property 'text'`).
 */
export class ToolInputInvalidError extends AgentToolsError {
  readonly problems: string;

  constructor(toolId: string, problems: string) {
    super("TOOL_INPUT_INVALID", `The input of tool "${toolId}" does not match its schema: ${problems}.`, { toolId });
    this.problems = problems;
  }
}

/** The tool's result is unusable: not JSON-serialisable, or a binary wrote no or invalid JSON. */
export class ToolOutputError extends AgentToolsError {
  constructor(toolId: string, reason: string, options: { cause?: unknown } = {}) {
    super("TOOL_OUTPUT_INVALID", `Tool "${toolId}" returned an unusable result: ${reason}`, { toolId, ...options });
  }
}

/** The call ran longer than the timeout; the process (group) was killed and is restarted on next use. */
export class ToolTimeoutError extends AgentToolsError {
  readonly timeoutMs: number;

  constructor(toolId: string, timeoutMs: number) {
    super(
      "TOOL_TIMEOUT",
      `Tool "${toolId}" did not answer within ${timeoutMs} ms and was killed; raise callTimeoutMs if it needs longer.`,
      { toolId },
    );
    this.timeoutMs = timeoutMs;
  }
}

/** The tool's process died during the call (os._exit, a signal, a segfault); it is restarted on next use. */
export class ToolCrashedError extends AgentToolsError {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderr: string;

  constructor(toolId: string, exitCode: number | null, signal: string | null, stderr: string) {
    const how = signal === null ? `exit code ${exitCode}` : `signal ${signal}`;
    const tail = stderr.trim() === "" ? "" : `; stderr: ${stderr.trim().slice(-2000)}`;
    super("TOOL_CRASHED", `Tool "${toolId}" crashed its process (${how}) during the call${tail}`, { toolId });
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderr = stderr;
  }
}

/** The tool's environment could not be prepared: no Python interpreter, or pip failed on requirements.txt. */
export class ToolEnvironmentError extends AgentToolsError {
  constructor(toolId: string | undefined, reason: string, cause?: unknown) {
    super("TOOL_ENVIRONMENT_FAILED", `${toolId === undefined ? "" : `Tool "${toolId}": `}${reason}`, {
      ...(toolId === undefined ? {} : { toolId }),
      cause,
    });
  }
}

/** The tool was removed or the SDK closed while this call waited. */
export class ToolClosedError extends AgentToolsError {
  constructor(toolId: string) {
    super("TOOL_CLOSED", `Tool "${toolId}" was removed or its AgentTools closed; add it again to call it.`, { toolId });
  }
}
