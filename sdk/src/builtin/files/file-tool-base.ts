import { isAbsolute } from "node:path";
import { PermissionBehavior, PermissionMode, type PermissionContext, type PermissionDecision, type PermissionRule } from "../../permission/types.js";
import { isPathInWorkingDirectories } from "../../permission/working-directories.js";
import type { AgentState } from "../../tool/agent-state.js";
import { ToolBase, type ToolBaseOptions } from "../../tool/tool-base.js";
import { dangerousPathLists, isDangerousPath, type DangerousPathLists } from "../paths/dangerous-paths.js";
import { matchesPathRule, suggestPathRule } from "../paths/path-rules.js";
import { LocalWorkspaceBackend } from "../workspace/local-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";
import { ReadCache } from "./read-cache.js";

export interface FileToolOptions extends ToolBaseOptions {
  /** Base of relative path rules and suggestions (default: the backend's cwd). */
  cwd?: string;
  backend?: WorkspaceBackend;
  dangerousFiles?: string[];
  dangerousDirectories?: string[];
  additionalDangerousFiles?: string[];
  additionalDangerousDirectories?: string[];
}

export interface FilePathInput {
  file_path: string;
}

/** What Read, Write and Edit share: the backend, path rules, suggestions and the read ledger. */
export abstract class FileToolBase<Input extends FilePathInput> extends ToolBase<Input> {
  override isStateInjected = true;
  readonly cwd: string;
  readonly backend: WorkspaceBackend;
  readonly dangerousPaths: DangerousPathLists;

  constructor(options: FileToolOptions = {}) {
    super(options);
    this.backend = options.backend ?? new LocalWorkspaceBackend({ cwd: options.cwd });
    this.cwd = options.cwd ?? this.backend.cwd;
    this.dangerousPaths = dangerousPathLists(options);
  }

  /** Path rules: gitignore style relative to the cwd, or absolute; the real path counts too. */
  override matchRule(ruleContent: string | undefined, input: Input): boolean {
    if (!ruleContent) return true;
    return typeof input.file_path === "string" && matchesPathRule(ruleContent, input.file_path, this.cwd);
  }

  override generateSuggestions(input: Input): PermissionRule[] {
    if (typeof input.file_path !== "string" || !isAbsolute(input.file_path)) return [];
    return [{ toolName: this.name, ruleContent: suggestPathRule(input.file_path, this.cwd), behavior: PermissionBehavior.ALLOW, source: "suggested" }];
  }

  protected readCache(state: AgentState | undefined): ReadCache | undefined {
    return state ? ReadCache.of(state) : undefined;
  }
}

/**
 * Write and Edit (spec §5): a dangerous path (judged on the real path, so a symlink to
 * `.git/config` counts) is a bypass-immune ASK; in ACCEPT_EDITS and DONT_ASK a path inside a
 * working directory is allowed; everything else goes to the engine's rules.
 */
export function checkWritePermission(tool: FileToolBase<FilePathInput>, filePath: unknown, context: PermissionContext): PermissionDecision {
  if (typeof filePath !== "string" || filePath === "") return { behavior: PermissionBehavior.PASSTHROUGH, message: "No file_path given" };
  if (isDangerousPath(filePath, tool.dangerousPaths, tool.cwd, "write")) {
    return { behavior: PermissionBehavior.ASK, message: `Permission required: Write operation on sensitive file ${filePath}`, reason: "Safety check: dangerous file or directory", bypassImmune: true };
  }
  const editsAllowed = context.mode === PermissionMode.ACCEPT_EDITS || context.mode === PermissionMode.DONT_ASK;
  if (editsAllowed && isAbsolute(filePath) && isPathInWorkingDirectories(filePath, [tool.cwd, ...context.workingDirectories])) {
    return { behavior: PermissionBehavior.ALLOW, message: `Permission granted for ${tool.name}: ${filePath} is inside a working directory`, reason: `Mode: ${context.mode}` };
  }
  return { behavior: PermissionBehavior.PASSTHROUGH, message: `${tool.name} ${filePath}` };
}
