import type { PermissionResult } from "../permission/permission-engine.js";
import type { PermissionRule } from "../permission/types.js";
import type { PermissionRuleInput } from "../permission/rule-input.js";
import type { AgentToolsError } from "../errors.js";
import type { ToolChunk, ToolContentBlock, ToolResultState } from "../tool/tool-chunk.js";
import type { ToolResponse } from "../tool/tool-response.js";

/** A tool call as an LLM emits it; `input` may be the raw JSON arguments string. */
export interface ToolCall {
  id: string;
  name: string;
  input: string | Record<string, unknown>;
}

/**
 * A call's state (docs/design/permission-model.md#call-states): pending → asking | allowed | finished;
 * allowed → submitted (external) | finished.
 */
export const ToolCallState = {
  PENDING: "pending",
  ASKING: "asking",
  ALLOWED: "allowed",
  SUBMITTED: "submitted",
  FINISHED: "finished",
} as const;
export type ToolCallState = (typeof ToolCallState)[keyof typeof ToolCallState];

/** A call waiting for the user, with why and the rules they may accept to stop being asked. */
export interface ConfirmationRequest {
  id: string;
  name: string;
  input: Record<string, unknown>;
  message: string;
  reason: string | undefined;
  suggestions: PermissionRule[];
  /** A safety check: remembering an allow rule will not silence it next time. */
  bypassImmune: boolean;
}

/** A call the agent must not run itself: someone else executes it and reports the result. */
export interface ExternalExecutionRequest {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

export type ToolExecutionEvent =
  | { type: "require_user_confirm"; toolCalls: ConfirmationRequest[] }
  | { type: "require_external_execution"; toolCalls: ExternalExecutionRequest[] }
  | { type: "tool_result_start"; toolCallId: string; name: string }
  | { type: "tool_result_chunk"; toolCallId: string; name: string; chunk: ToolChunk }
  /** The call ran (its response may still be an ERROR or INTERRUPTED result). */
  | { type: "tool_result_end"; toolCallId: string; name: string; response: ToolResponse }
  /** Refused by the engine (`decision`) or by the user (`byUser`). */
  | { type: "tool_denied"; toolCallId: string; name: string; response: ToolResponse; decision?: PermissionResult; byUser: boolean }
  /** The call could not start: unknown tool, inactive group, bad input, a failing permission check or rule. */
  | { type: "tool_error"; toolCallId: string; name: string; response: ToolResponse; error: AgentToolsError };

/** The user's answer to one confirmation request. */
export interface ConfirmResult {
  toolCallId: string;
  confirmed: boolean;
  /** Rules to remember (strings default to allow rules), e.g. some of the suggestions. */
  rules?: PermissionRuleInput[];
  /** The input as the user edited it; it replaces the LLM's (and is validated again). */
  input?: Record<string, unknown>;
}

/** The result of an externally executed call. */
export interface ExternalExecutionResult {
  toolCallId: string;
  output: string | ToolContentBlock[];
  state?: ToolResultState;
  metadata?: Record<string, unknown>;
}

export type ExecutorAnswer = { confirmResults: ConfirmResult[] } | { executionResults: ExternalExecutionResult[] };
