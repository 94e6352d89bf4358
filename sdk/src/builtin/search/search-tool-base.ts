import { isAbsolute, join, resolve } from "node:path";
import {
  PermissionBehavior,
  type PermissionContext,
  type PermissionDecision,
  type PermissionRule,
  type RuleMatchContext,
} from "../../permission/types.js";
import { resolveRealPath } from "../../permission/working-directories.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolBaseOptions } from "../../tool/tool-base.js";
import { dangerousPathLists, type DangerousPathOptions } from "../paths/dangerous-paths.js";
import { matchesPathRule, pathRuleMatcher, suggestPathRule } from "../paths/path-rules.js";
import type { ReadProblem } from "../paths/read-confinement.js";
import { readDecision } from "../paths/read-decision.js";
import { ToolScope } from "../paths/tool-scope.js";
import { treeSecret, type TreeReading } from "../paths/tree-secrets.js";
import { LocalWorkspaceBackend } from "../workspace/local-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";

export interface SearchToolOptions extends ToolBaseOptions, DangerousPathOptions {
  /**
   * Where searches start when no `path` is given (default: the backend's cwd). A configured cwd
   * also counts as a working directory; the default does not, unless the engine has none.
   */
  cwd?: string;
  backend?: WorkspaceBackend;
}

export interface SearchInput {
  pattern: string;
  path?: string;
}

/** Version-control directories never searched. */
export const VCS_DIRECTORIES = [".git", ".svn", ".hg", ".bzr", ".jj", ".sl"];

/**
 * Glob and Grep: read-only, concurrency-safe searches under a directory. They are auto-allowed
 * only when everything they read is inside the working directories and not a secret; `Read(...)`
 * rules govern them as well as their own.
 */
export abstract class SearchToolBase<Input extends SearchInput> extends ToolBase<Input> {
  override isReadOnly = true;
  override isConcurrencySafe = true;
  override readonly origin = BUILTIN_ORIGIN;
  override readonly sharesRulesWith: readonly string[] = ["Read"];
  readonly cwd: string;
  readonly backend: WorkspaceBackend;
  readonly scope: ToolScope;

  constructor(options: SearchToolOptions = {}) {
    super(options);
    this.backend = options.backend ?? new LocalWorkspaceBackend({ cwd: options.cwd });
    this.cwd = options.cwd ?? this.backend.cwd;
    this.scope = new ToolScope(this.cwd, options.cwd ?? options.backend?.cwd, dangerousPathLists(options));
  }

  /** Why this search may read something it must not read unasked, or undefined. */
  protected abstract readProblem(input: Input, context: PermissionContext | undefined): ReadProblem | undefined;

  /** How the search walks its root when it reads file contents (Grep); undefined when it reads names only (Glob). */
  protected abstract contentReading(input: Input): { reading: TreeReading; reads?: ((path: string) => boolean) | undefined } | undefined;

  override checkReadOnly(input: Input, context?: PermissionContext): boolean {
    return this.readProblem(input, context) === undefined;
  }

  /** A search that would read a secret asks even past allow rules; one reaching elsewhere goes to the rules and the mode. */
  checkPermissions(input: Input, context: PermissionContext): PermissionDecision {
    return readDecision(this.readProblem(input, context), {
      asking: `${this.name} would read a sensitive file`,
      readOnly: `${this.name} is read-only`,
    });
  }

  /** The directory searched: `path` (absolute, or relative to the cwd) or the cwd. */
  protected searchRoot(input: Input): string {
    return typeof input.path === "string" && input.path !== "" ? resolve(this.cwd, input.path) : this.cwd;
  }

  /**
   * An allow rule matches when it covers the searched directory (`dir/**`). A deny or ask rule
   * also matches when the search may read anything it names: the directory, the pattern as a
   * path, or (for a content search) any file the walk would read; a tree too big to check counts.
   */
  override matchRule(ruleContent: string | undefined, input: Input, context?: RuleMatchContext): boolean {
    if (!ruleContent) return true;
    const base = this.scope.ruleBase(context);
    const root = this.searchRoot(input);
    const covers = (path: string) => matchesPathRule(ruleContent, path, base) || matchesPathRule(ruleContent, join(path, "_"), base);
    if (context?.ruleBehavior === PermissionBehavior.ALLOW) return covers(root) && this.allowCovers(input, covers);
    if (covers(root)) return true;
    if (
      typeof input.pattern === "string" &&
      matchesPathRule(ruleContent, isAbsolute(input.pattern) ? input.pattern : join(root, input.pattern), base)
    )
      return true;
    const walk = context === undefined ? undefined : this.contentReading(input);
    if (walk === undefined) return false;
    const realRoot = resolveRealPath(root, this.cwd);
    const matches = pathRuleMatcher(ruleContent, base);
    const target = (path: string) => matches(path) || (path.startsWith(`${realRoot}/`) && matches(join(root, path.slice(realRoot.length))));
    return treeSecret(root, this.scope.lists, walk.reading, { target, reads: walk.reads }) !== undefined;
  }

  /** Beyond the root, what else an allow rule must cover (Glob: where its pattern starts). */
  protected allowCovers(_input: Input, _covers: (path: string) => boolean): boolean {
    return true;
  }

  override generateSuggestions(input: Input, context?: PermissionContext): PermissionRule[] {
    return [
      {
        toolName: this.name,
        ruleContent: suggestPathRule(join(this.searchRoot(input), "_"), this.scope.ruleBase(context)),
        behavior: PermissionBehavior.ALLOW,
        source: "suggested",
      },
    ];
  }
}
