import { isAbsolute, resolve } from "node:path";
import {
  PermissionBehavior,
  PermissionMode,
  type PermissionContext,
  type PermissionDecision,
  type PermissionRule,
  type RuleMatchContext,
} from "../../permission/types.js";
import { isPathInWorkingDirectories } from "../../permission/working-directories.js";
import type { AgentState } from "../../tool/agent-state.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolBaseOptions } from "../../tool/tool-base.js";
import { dangerousPathLists, dangerousPathReason, type DangerousPathLists, type DangerousPathOptions } from "../paths/dangerous-paths.js";
import { matchesPathRule, suggestPathRule } from "../paths/path-rules.js";
import { protectedConfigProblem } from "../paths/protected-config.js";
import { ToolScope } from "../paths/tool-scope.js";
import { LocalWorkspaceBackend } from "../workspace/local-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";
import { ReadCache } from "./read-cache.js";

export interface FileToolOptions extends ToolBaseOptions, DangerousPathOptions {
  /**
   * Resolves relative paths; a configured cwd also counts as a working directory (reads there are
   * auto-allowed). Default: the backend's cwd, which is NOT a working directory unless the engine
   * has none configured.
   */
  cwd?: string;
  backend?: WorkspaceBackend;
  /**
   * The read-before-write ledger for calls that carry no agent state (a direct `invoke()` outside a
   * Toolkit). Give Read, Write and Edit the same one so a direct Write sees a direct Read. Default:
   * this tool's own, so a direct Write or Edit of an existing file that no Read of this ledger saw
   * is refused, as it is in a Toolkit.
   */
  readCache?: ReadCache;
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
  override readonly origin = BUILTIN_ORIGIN;
  readonly cwd: string;
  readonly backend: WorkspaceBackend;
  readonly dangerousPaths: DangerousPathLists;
  readonly scope: ToolScope;
  private readonly ownReadCache: ReadCache;

  constructor(options: FileToolOptions = {}) {
    super(options);
    this.ownReadCache = options.readCache ?? new ReadCache();
    this.backend = options.backend ?? new LocalWorkspaceBackend({ cwd: options.cwd });
    this.cwd = options.cwd ?? this.backend.cwd;
    this.dangerousPaths = dangerousPathLists(options);
    this.scope = new ToolScope(this.cwd, options.cwd ?? options.backend?.cwd, this.dangerousPaths);
  }

  /** Path rules: gitignore style relative to the project root (`ruleBaseDirectory`), or absolute; the real path counts too. */
  override matchRule(ruleContent: string | undefined, input: Input, context?: RuleMatchContext): boolean {
    if (!ruleContent) return true;
    return typeof input.file_path === "string" && matchesPathRule(ruleContent, input.file_path, this.scope.ruleBase(context));
  }

  override generateSuggestions(input: Input, context?: PermissionContext): PermissionRule[] {
    if (typeof input.file_path !== "string" || !isAbsolute(input.file_path)) return [];
    return [
      {
        toolName: this.name,
        ruleContent: suggestPathRule(input.file_path, this.scope.ruleBase(context)),
        behavior: PermissionBehavior.ALLOW,
        source: "suggested",
      },
    ];
  }

  /** The agent's ledger when the call carries its state, else the tool's own: every path that writes checks one. */
  protected readCache(state: AgentState | undefined): ReadCache {
    return state ? ReadCache.of(state) : this.ownReadCache;
  }
}

/**
 * Write and Edit: a path inside the context's read-only directories (loaded skills' folders) is
 * refused in every mode; configuration that runs code (`protectedConfigProblem`) asks in every mode; a
 * dangerous path (judged on the real path, so a symlink to `~/.bashrc` counts, and on hard links)
 * is a bypass-immune ASK; in ACCEPT_EDITS and DONT_ASK a path inside a working directory is
 * allowed; everything else goes to the engine's rules.
 */
export function checkWritePermission(tool: FileToolBase<FilePathInput>, filePath: unknown, context: PermissionContext): PermissionDecision {
  if (typeof filePath !== "string" || filePath === "") return { behavior: PermissionBehavior.PASSTHROUGH, message: "No file_path given" };
  const readOnly = context.readOnlyDirectories ?? [];
  if (readOnly.length > 0 && isPathInWorkingDirectories(filePath, readOnly, tool.cwd)) {
    return {
      behavior: PermissionBehavior.DENY,
      message:
        `${tool.name} refused: ${filePath} is inside a read-only folder (a loaded skill's: ` +
        `${readOnly.join(", ")}); copy the file into the working directory to change it.`,
      reason: "Read-only directory",
    };
  }
  const protectedConfig = protectedConfigProblem(resolve(tool.cwd, filePath), tool.cwd);
  if (protectedConfig !== undefined) {
    return {
      behavior: PermissionBehavior.ASK,
      message: `Permission required: ${tool.name} changes configuration that runs code: ${protectedConfig}`,
      reason: "Safety check: protected configuration",
      bypassImmune: true,
      alwaysAsk: true,
    };
  }
  const dangerous = dangerousPathReason(filePath, tool.dangerousPaths, tool.cwd, "write");
  if (dangerous !== undefined) {
    return {
      behavior: PermissionBehavior.ASK,
      message: `Permission required: Write operation on sensitive file ${filePath} (${dangerous})`,
      reason: "Safety check: dangerous file or directory",
      bypassImmune: true,
    };
  }
  const editsAllowed = context.mode === PermissionMode.ACCEPT_EDITS || context.mode === PermissionMode.DONT_ASK;
  if (editsAllowed && isAbsolute(filePath) && isPathInWorkingDirectories(filePath, tool.scope.workingDirectories(context))) {
    return {
      behavior: PermissionBehavior.ALLOW,
      message: `Permission granted for ${tool.name}: ${filePath} is inside a working directory`,
      reason: `Mode: ${context.mode}`,
    };
  }
  return { behavior: PermissionBehavior.PASSTHROUGH, message: `${tool.name} ${filePath}` };
}
