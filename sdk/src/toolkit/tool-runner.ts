import type { PermissionEngine } from "../permission/permission-engine.js";
import type { ToolBase } from "../tool/tool-base.js";
import type { ToolChunk } from "../tool/tool-chunk.js";
import type { ToolResponse } from "../tool/tool-response.js";
import type { ToolCallError } from "./errors.js";

/**
 * What a `ToolCallExecutor` needs from the `Toolkit` that created it: finding, validating and
 * running tools. The executor depends on this, not on `Toolkit`, so the two modules do not import
 * each other.
 */
export interface ToolRunner {
  readonly engine: PermissionEngine;
  getTool(name: string): ToolBase<any> | undefined;
  /** The available tool named `name`, or an error saying why it cannot be called. */
  resolve(name: string): { tool: ToolBase<any> } | { error: ToolCallError };
  /** Undefined when `input` satisfies the tool's JSON Schema, else what is wrong. */
  validateInput(tool: ToolBase<any>, input: unknown): string | undefined;
  /** Runs an already resolved tool through its middleware; never throws. */
  runTool(
    tool: ToolBase<any>,
    callId: string,
    input: Record<string, unknown>,
    signal?: AbortSignal,
  ): AsyncGenerator<ToolChunk, ToolResponse, undefined>;
}

/** What the LLM reads when the user interrupts a running call. */
export const INTERRUPTED_MESSAGE = "<system-reminder>The tool call has been interrupted by the user.</system-reminder>";

/** An exception as the LLM reads it in an ERROR result. */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}
