import { AgentToolsError } from "../errors.js";

/** A Toolkit misconfigured or misused by the program (not by the LLM: its mistakes become error results). */
export class ToolkitError extends AgentToolsError {
  constructor(code: string, message: string) {
    super(code, message);
  }
}

/** An LLM's tool call that cannot run: unknown tool, inactive group, input not matching the schema. */
export class ToolCallError extends AgentToolsError {
  constructor(code: string, message: string) {
    super(code, message);
  }
}
