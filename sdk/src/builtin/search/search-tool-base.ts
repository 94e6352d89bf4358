import { isAbsolute, join, resolve } from "node:path";
import { PermissionBehavior, type PermissionDecision, type PermissionRule } from "../../permission/types.js";
import { ToolBase, type ToolBaseOptions } from "../../tool/tool-base.js";
import { matchesPathRule, suggestPathRule } from "../paths/path-rules.js";
import { LocalWorkspaceBackend } from "../workspace/local-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";

export interface SearchToolOptions extends ToolBaseOptions {
  /** Where searches start when no `path` is given (default: the backend's cwd). */
  cwd?: string;
  backend?: WorkspaceBackend;
}

export interface SearchInput {
  pattern: string;
  path?: string;
}

/** Version-control directories never searched. */
export const VCS_DIRECTORIES = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"];

/** Glob and Grep: read-only, concurrency-safe searches under a directory, governed by path rules. */
export abstract class SearchToolBase<Input extends SearchInput> extends ToolBase<Input> {
  override isReadOnly = true;
  override isConcurrencySafe = true;
  readonly cwd: string;
  readonly backend: WorkspaceBackend;

  constructor(options: SearchToolOptions = {}) {
    super(options);
    this.backend = options.backend ?? new LocalWorkspaceBackend({ cwd: options.cwd });
    this.cwd = options.cwd ?? this.backend.cwd;
  }

  checkPermissions(): PermissionDecision {
    return { behavior: PermissionBehavior.PASSTHROUGH, message: `${this.name} is read-only` };
  }

  /** The directory searched: `path` (absolute, or relative to the cwd) or the cwd. */
  protected searchRoot(input: Input): string {
    return typeof input.path === "string" && input.path !== "" ? resolve(this.cwd, input.path) : this.cwd;
  }

  /** A path rule matches the searched directory (or anything in it, for `dir/**` rules), then the pattern. */
  override matchRule(ruleContent: string | undefined, input: Input): boolean {
    if (!ruleContent) return true;
    const root = this.searchRoot(input);
    if (matchesPathRule(ruleContent, root, this.cwd) || matchesPathRule(ruleContent, join(root, "_"), this.cwd)) return true;
    return typeof input.pattern === "string" && (matchesPathRule(ruleContent, isAbsolute(input.pattern) ? input.pattern : join(root, input.pattern), this.cwd));
  }

  override generateSuggestions(input: Input): PermissionRule[] {
    return [{ toolName: this.name, ruleContent: suggestPathRule(join(this.searchRoot(input), "_"), this.cwd), behavior: PermissionBehavior.ALLOW, source: "suggested" }];
  }
}
