// `@agent-tools/sdk`: what most agents need. Each area has its own entry point with the rest
// (`@agent-tools/sdk/toolkit`, `/permission`, `/builtin`, `/runtimes`, `/sandbox`, `/registry`,
// `/archive`, `/mcp`, `/search`, `/skills`); `test/sdk/public-api.test.ts` pins them all.
export { VERSION } from "./version.js";
export { AgentToolsError } from "./errors.js";
export { ERROR_CODES, type AgentToolsErrorCode } from "./error-codes.js";
export { AgentTools, parseToolRef, type AddedTool, type AgentToolsOptions, type ToolSource } from "./agent-tools.js";

export { AgentState } from "./tool/agent-state.js";
export { ToolError } from "./tool/errors.js";
export { ExternalTool, type ExternalToolOptions } from "./tool/external-tool.js";
export { FunctionTool, type FunctionToolOptions, type ToolFunction } from "./tool/function-tool.js";
export {
  ToolBase,
  type ToolBaseOptions,
  type ToolCallContext,
  type ToolCallResult,
  type ToolInputSchema,
  ToolMiddlewareBase,
  type ToolMiddleware,
  type ToolNextHandler,
} from "./tool/tool-base.js";
export { ToolChunk, ToolResultState, type ToolContentBlock } from "./tool/tool-chunk.js";
export { ToolResponse } from "./tool/tool-response.js";

export { ToolCallError, ToolkitError } from "./toolkit/errors.js";
export { toolCallsFromOpenAI, toolMessagesForOpenAI } from "./toolkit/openai-messages.js";
export {
  ToolCallState,
  type ConfirmationRequest,
  type ConfirmResult,
  type ToolCall,
  type ToolExecutionEvent,
} from "./toolkit/tool-call.js";
export { ToolCallExecutor, type ExecutionHandlers, type ToolCallExecutorOptions } from "./toolkit/tool-call-executor.js";
export { Toolkit, type ToolkitOptions } from "./toolkit/toolkit.js";

export { PermissionModeError, PermissionRuleError, PermissionSettingsError } from "./permission/errors.js";
export { PermissionEngine, type PermissionEngineOptions, type PermissionResult } from "./permission/permission-engine.js";
export {
  PermissionBehavior,
  PermissionMode,
  type PermissionContext,
  type PermissionDecision,
  type PermissionRule,
} from "./permission/types.js";
export { loadPermissionSettings } from "./permission/settings/load-permission-settings.js";
export { trustProjectFolder } from "./permission/settings/trusted-folders.js";

export { Bash } from "./builtin/bash/bash-tool.js";
export { Edit } from "./builtin/files/edit-tool.js";
export { Read } from "./builtin/files/read-tool.js";
export { Write } from "./builtin/files/write-tool.js";
export { Glob } from "./builtin/search/glob-tool.js";
export { Grep } from "./builtin/search/grep-tool.js";
export { TaskCreate, TaskGet, TaskList, TaskUpdate } from "./builtin/tasks/task-tools.js";
export { BUILTIN_TOOL_NAMES, createBuiltinTools } from "./builtin/builtin-tools.js";
export type { Workspace } from "./builtin/workspace/workspace.js";
export { WorkspaceError } from "./builtin/workspace/workspace-error.js";
export { LocalWorkspace } from "./builtin/workspace/local-workspace.js";
export { SandboxedLocalWorkspace } from "./builtin/workspace/sandboxed-local-workspace.js";
export { DockerWorkspace } from "./builtin/workspace/docker/docker-workspace.js";

export { RegistryClient, type RegistryClientOptions } from "./registry-client/registry-client.js";
export { RegistryError, RegistryUnavailableError, ToolNotFoundError } from "./registry-client/registry-errors.js";
export { RegistryTool, registryTool, registryTools, type RegistryToolOptions } from "./registry-tool/registry-tool.js";
export { ArchiveError } from "./archive/archive-error.js";
export { ArchiveIntegrityError } from "./archive/extract-to-directory.js";
export { BundleTransferError, PackError } from "./publish/publish-errors.js";
export { ToolCheckError } from "./publish/tool-check-error.js";
export { RegistryUrlError } from "./registry-client/registry-url.js";

export {
  ToolClosedError,
  ToolCrashedError,
  ToolEnvironmentError,
  ToolExecutionError,
  ToolInputError,
  ToolInputInvalidError,
  ToolOutputError,
  ToolTimeoutError,
} from "./runtimes/runtime-errors.js";
export { ToolLoadError } from "./tool-load-error.js";
export { ToolPlatformError } from "./tool-platform-error.js";
export { ToolFileError } from "./tool-files.js";
export { CapabilityPathRefusedError, SandboxDeniedError, SandboxUnavailableError } from "./sandbox/sandbox-errors.js";
export type { SandboxMode } from "./sandbox/sandbox-preflight.js";

export { addSearchMetaTools } from "./search/search-meta-tools.js";
export {
  InvalidToolArgumentsError,
  MissingOpenAIKeyError,
  NoSearchCandidatesError,
  NoToolCallError,
  OpenAIRequestError,
  ToolSearchError,
  UnknownFunctionNameError,
} from "./search/search-errors.js";
export { McpServerError } from "./mcp/errors.js";
export { McpServers, type McpServersOptions } from "./mcp/client/mcp-servers.js";
export { createMcpToolServer } from "./mcp/server/tool-server.js";
export { SkillError } from "./skills/skill-error.js";
export { loadSkills } from "./skills/load-skills.js";
export { ToolYankedError, TrustError, type TrustErrorCode } from "./trust/trust-errors.js";
export type { TrustAsker, TrustRequest } from "./trust/trust-asks.js";
export type { TrustOptions } from "./trust/tool-trust.js";
export type { ToolWarning } from "./trust/version-status.js";
