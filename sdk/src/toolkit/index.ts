// `@agent-tools/sdk/toolkit`: tools, the Toolkit and the agent loop's executor (docs/permissions.md).
export { AgentState } from "../tool/agent-state.js";
export { ToolError } from "../tool/errors.js";
export { ExternalTool, type ExternalToolOptions } from "../tool/external-tool.js";
export { FunctionTool, type FunctionToolOptions, type ToolFunction } from "../tool/function-tool.js";
export {
  ToolBase,
  type Awaitable,
  type ToolBaseOptions,
  type ToolCallContext,
  type ToolCallResult,
  type ToolInputSchema,
  ToolMiddlewareBase,
  type ToolMiddleware,
  type ToolMiddlewareFunction,
  type ToolNextHandler,
} from "../tool/tool-base.js";
export {
  isToolChunk,
  ToolChunk,
  ToolResultState,
  type DataBlock,
  type TextBlock,
  type ToolChunkInit,
  type ToolContentBlock,
  type UrlSource,
} from "../tool/tool-chunk.js";
export { ToolResponse } from "../tool/tool-response.js";
export { ToolCallError, ToolkitError } from "./errors.js";
export { toolCallsFromOpenAI, toolMessagesForOpenAI, type OpenAIToolCall, type OpenAIToolMessage } from "./openai-messages.js";
export { RESET_TOOLS_NAME, ResetTools } from "./reset-tools.js";
export {
  ToolCallState,
  type ConfirmationRequest,
  type ConfirmResult,
  type ExecutorAnswer,
  type ExternalExecutionRequest,
  type ExternalExecutionResult,
  type ToolCall,
  type ToolExecutionEvent,
} from "./tool-call.js";
export { ToolCallExecutor, type ExecutionHandlers, type ToolCallExecutorOptions } from "./tool-call-executor.js";
export { BASIC_GROUP, type ToolGroup } from "./tool-group.js";
export { Toolkit, type FunctionToolSchema, type ToolkitOptions } from "./toolkit.js";
export type { ToolCallErrorCode, ToolErrorCode, ToolkitErrorCode } from "../error-codes.js";
