// `@agent-tools/sdk/builtin`: the built-in tools and what configures them (docs/builtin-tools.md).
export { Bash, DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS, type BashInput, type BashOptions } from "./bash/bash-tool.js";
export { MAX_OUTPUT_CHARACTERS } from "./bash/bash-output.js";
export type { BashSandboxOptions, BashSandboxStatus } from "./bash/bash-sandbox.js";
export { BASH_ENVIRONMENT, type EnvironmentEntry } from "./command-sandbox/bash-environment.js";
export { SANDBOX_ESCAPES, type SandboxEscape } from "./bash/sandbox-escape.js";
export { MAX_LINE_LENGTH, MAX_READ_LINES, Read, type ReadInput } from "./files/read-tool.js";
export { Write, type WriteInput } from "./files/write-tool.js";
export { Edit, type EditInput } from "./files/edit-tool.js";
export { ReadCache, type ReadRecord } from "./files/read-cache.js";
export type { FileToolOptions } from "./files/file-tool-base.js";
export { Glob, MAX_GLOB_RESULTS, type GlobInput } from "./search/glob-tool.js";
export { DEFAULT_HEAD_LIMIT, Grep, type GrepInput, type GrepOutputMode } from "./search/grep-tool.js";
export type { SearchToolOptions } from "./search/search-tool-base.js";
export { TaskStatus, TaskStore, type Task } from "./tasks/task-store.js";
export {
  TaskCreate,
  TaskGet,
  TaskList,
  TaskUpdate,
  type TaskCreateInput,
  type TaskGetInput,
  type TaskToolOptions,
  type TaskUpdateInput,
} from "./tasks/task-tools.js";
export { LocalWorkspaceBackend } from "./workspace/local-workspace-backend.js";
export { SandboxedWorkspaceBackend, type ProfileSource } from "./workspace/sandboxed-workspace-backend.js";
export type {
  BackendConfinement,
  BackgroundProcess,
  ExecOptions,
  ExecResult,
  FileStat,
  GlobOptions,
  WorkspaceBackend,
} from "./workspace/workspace-backend.js";
export { WorkspaceBase, type Workspace } from "./workspace/workspace.js";
export { WorkspaceError } from "./workspace/workspace-error.js";
export { LocalWorkspace, type LocalWorkspaceOptions } from "./workspace/local-workspace.js";
export { SandboxedLocalWorkspace, type SandboxedLocalWorkspaceOptions } from "./workspace/sandboxed-local-workspace.js";
export { DockerWorkspace, type DockerWorkspaceOptions } from "./workspace/docker/docker-workspace.js";
export { DockerWorkspaceBackend } from "./workspace/docker/docker-workspace-backend.js";
export type { DockerEngineAddress } from "./workspace/docker/docker-engine.js";
export {
  DEFAULT_DANGEROUS_DIRECTORIES,
  DEFAULT_DANGEROUS_FILES,
  isDangerousPath,
  type DangerousPathLists,
} from "./paths/dangerous-paths.js";
export { PROTECTED_CONFIG, type ProtectedConfigEntry } from "./paths/protected-config.js";
export { RUNS_LATER } from "./paths/runs-later.js";
export {
  SECRET_LOCATIONS,
  SECRET_NAME_EXCEPTIONS,
  SECRET_NAME_PATTERNS,
  SECRET_SYSTEM_PATHS,
  type SecretCategory,
  type SecretLocation,
  type SecretNamePattern,
  type SecretSystemPath,
} from "./paths/secret-locations.js";
export { analyseBash, MAX_COMMAND_COUNT, MAX_COMMAND_LENGTH, type BashAnalysis } from "./shell/bash-analysis.js";
export { BUILTIN_TOOL_NAMES, createBuiltinTools } from "./builtin-tools.js";
