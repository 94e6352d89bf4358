import type { ToolCallErrorCode, ToolkitErrorCode } from "../error-codes.js";
import { AgentToolsError } from "../errors.js";

/** A Toolkit misconfigured or misused by the program (not by the LLM: its mistakes become error results). */
export class ToolkitError extends AgentToolsError<ToolkitErrorCode> {
  constructor(code: ToolkitErrorCode, message: string) {
    super(code, message);
  }
}

/** An LLM's tool call that cannot run: unknown tool, inactive group, input not matching the schema. */
export class ToolCallError extends AgentToolsError<ToolCallErrorCode> {
  constructor(code: ToolCallErrorCode, message: string) {
    super(code, message);
  }
}
