import { PermissionBehavior, type PermissionContext, type PermissionDecision, type PermissionRule } from "../../permission/types.js";
import { ToolBase, type ToolBaseOptions, type ToolCallContext, type ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { dangerousPathLists, type DangerousPathLists } from "../paths/dangerous-paths.js";
import { analyseBash, type BashAnalysis } from "../shell/bash-analysis.js";
import { decideBash, isReadOnlyBash, sensitivePaths, type BashPermissionOptions } from "../shell/bash-permission.js";
import { ruleMatchesAnyCommand, suggestedRuleContents } from "../shell/bash-rules.js";
import { LocalWorkspaceBackend } from "../workspace/local-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";
import { bashSandbox, type BashSandboxOptions, type BashSandboxStatus } from "./bash-sandbox.js";
import { bashResultChunk } from "./bash-output.js";

export interface BashInput {
  command: string;
  /** Milliseconds; default 120000, at most 600000. */
  timeout?: number;
  description?: string;
  run_in_background?: boolean;
}

export interface BashOptions extends ToolBaseOptions {
  /** Where commands run (default: the backend's cwd). Relative paths in commands resolve against it. */
  cwd?: string;
  backend?: WorkspaceBackend;
  /** Replace the default dangerous file names / directory names (`[]` turns a check off). */
  dangerousFiles?: string[];
  dangerousDirectories?: string[];
  /** Added to the defaults (the constructor's `additional*` lists). */
  additionalDangerousFiles?: string[];
  additionalDangerousDirectories?: string[];
  /**
   * Run commands in the OS sandbox (docs/sandbox.md): the working directories writable, everything
   * else read-only, a private /tmp, no network unless allowed. `"off"` (default), `"auto"` (sandbox
   * when the preflight shows it works, else warn once and run unsandboxed), `"required"` (throw
   * here when it cannot), or an object with the mode and what to allow.
   */
  sandbox?: BashSandboxOptions["mode"] | BashSandboxOptions;
}

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;

/** Analyses are reused across the engine's calls for one decision (read-only check, rules, own check). */
const ANALYSIS_CACHE_SIZE = 64;

/**
 * Runs shell commands with `bash -c` in the tool's cwd. Every permission answer is made on the
 * tree-sitter-bash parse of the command: see `shell/` for the analysis.
 */
export class Bash extends ToolBase<BashInput> {
  readonly name = "Bash";
  readonly description =
    "Executes a bash command in the working directory and returns its output (stdout, then stderr). " +
    "Each call runs in a fresh shell: `cd` does not persist between calls. Use `timeout` (ms, max 600000) for long commands " +
    "and `run_in_background` for servers; prefer the Read, Glob and Grep tools for reading and searching files.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      command: { type: "string", description: "The command to execute." },
      timeout: {
        type: "number",
        minimum: 0,
        maximum: MAX_BASH_TIMEOUT_MS,
        description: `Timeout in milliseconds (default ${DEFAULT_BASH_TIMEOUT_MS}, max ${MAX_BASH_TIMEOUT_MS}).`,
      },
      description: { type: "string", description: "A short description of what the command does." },
      run_in_background: { type: "boolean", description: "Start the command and return at once; its output goes to a log file." },
    },
    required: ["command"],
  };

  readonly cwd: string;
  readonly backend: WorkspaceBackend;
  readonly dangerousPaths: DangerousPathLists;
  /**
   * Whether commands run in the OS sandbox, and what it lets them write and reach; decided once,
   * at construction (a `"auto"` sandbox that is unavailable reads `sandboxed: false` with the reason).
   */
  readonly sandboxStatus: BashSandboxStatus;
  /** Where commands run: the backend itself, or the backend through the sandbox. */
  private readonly runner: WorkspaceBackend;
  private readonly analyses = new Map<string, Promise<BashAnalysis>>();

  constructor(options: BashOptions = {}) {
    super(options);
    this.backend = options.backend ?? new LocalWorkspaceBackend({ cwd: options.cwd });
    this.cwd = options.cwd ?? this.backend.cwd;
    this.dangerousPaths = dangerousPathLists(options);
    const sandbox = bashSandbox(this.backend, this.cwd, options.sandbox);
    this.sandboxStatus = sandbox.status;
    this.runner = sandbox.runner;
    // In a sandbox without network, edits inside its writable directories need no prompt (docs/command-policy.md).
    const contained = sandbox.status.sandboxed && !sandbox.status.network;
    this.permissionOptions = {
      cwd: this.cwd,
      dangerousPaths: this.dangerousPaths,
      toolName: this.name,
      sandboxWritable: contained ? sandbox.status.writableDirectories : undefined,
    };
  }

  /**
   * True when every command runs in the OS sandbox: writes land only in
   * `sandboxStatus.writableDirectories`, and the network is reachable only if `sandboxStatus.network`.
   *
   * @example
   * const bash = new Bash({ cwd: "/work/project", sandbox: "auto" });
   * if (bash.sandboxed) console.log("writes outside", bash.sandboxStatus.writableDirectories, "fail");
   */
  get sandboxed(): boolean {
    return this.sandboxStatus.sandboxed;
  }

  /** The parsed and analysed command (cached per command string). */
  analyse(command: string): Promise<BashAnalysis> {
    let analysis = this.analyses.get(command);
    if (!analysis) {
      analysis = analyseBash(command, this.cwd);
      if (this.analyses.size >= ANALYSIS_CACHE_SIZE) this.analyses.delete(this.analyses.keys().next().value!);
      this.analyses.set(command, analysis);
    }
    return analysis;
  }

  private readonly permissionOptions: BashPermissionOptions;

  override async checkReadOnly(input: BashInput): Promise<boolean> {
    if (typeof input.command !== "string" || input.command.trim() === "") return false;
    return isReadOnlyBash(await this.analyse(input.command), this.permissionOptions);
  }

  override async checkPermissions(input: BashInput, context: PermissionContext): Promise<PermissionDecision> {
    if (typeof input.command !== "string") return { behavior: PermissionBehavior.PASSTHROUGH, message: "Empty command" };
    return decideBash(await this.analyse(input.command), context, this.permissionOptions);
  }

  /** Deny and ask rules match when ANY command of the string matches (through wrappers); see checkPermissions for allow rules. */
  override async matchRule(ruleContent: string | undefined, input: BashInput): Promise<boolean> {
    if (!ruleContent) return true;
    if (typeof input.command !== "string") return false;
    return ruleMatchesAnyCommand(ruleContent, await this.analyse(input.command));
  }

  /** Prefix rules for the commands that need one; none for commands a safety check flags. */
  override async generateSuggestions(input: BashInput): Promise<PermissionRule[]> {
    if (typeof input.command !== "string") return [];
    const analysis = await this.analyse(input.command);
    const flagged =
      analysis.unanalysable ||
      analysis.dangerous ||
      analysis.commands.some((command) => command.dangerous) ||
      sensitivePaths(analysis, this.permissionOptions).written.length > 0;
    if (flagged) return [];
    return suggestedRuleContents(analysis).map((ruleContent) => ({
      toolName: this.name,
      ruleContent,
      behavior: PermissionBehavior.ALLOW,
      source: "suggested",
    }));
  }

  override async call(input: BashInput, context: ToolCallContext = {}): Promise<ToolChunk> {
    if (typeof input.command !== "string" || input.command.trim() === "")
      return ToolChunk.error("Error: command must be a non-empty string.");
    const argv = ["bash", "-c", input.command];
    if (input.run_in_background) {
      const started = await this.runner.startBackground(argv, { cwd: this.cwd });
      return ToolChunk.text(`Command running in background (pid ${started.pid}); its output is written to ${started.logPath}.`, {
        metadata: { ...started },
      });
    }
    const timeoutMs = Math.min(Math.max(input.timeout ?? DEFAULT_BASH_TIMEOUT_MS, 0), MAX_BASH_TIMEOUT_MS) || DEFAULT_BASH_TIMEOUT_MS;
    const result = await this.runner.exec(argv, { cwd: this.cwd, timeoutMs, signal: context.signal });
    return bashResultChunk(input.command, timeoutMs, result);
  }
}
