import {
  PermissionBehavior,
  rulesOfTool,
  type PermissionContext,
  type PermissionDecision,
  type PermissionRule,
} from "../../permission/types.js";
import { ruleBaseDirectory } from "../../permission/working-directories.js";
import { BUILTIN_ORIGIN, ToolBase, type ToolBaseOptions, type ToolCallContext, type ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { dangerousPathLists, type DangerousPathLists } from "../paths/dangerous-paths.js";
import { matchesPathRule } from "../paths/path-rules.js";
import { pathRuleVerdict } from "../shell/path-rule-verdict.js";
import { analyseBash, type BashAnalysis } from "../shell/bash-analysis.js";
import { decideBash, isReadOnlyBash, sensitivePaths, type BashPermissionOptions } from "../shell/bash-permission.js";
import { ruleMatchesAnyCommand, suggestedRuleContents } from "../shell/bash-rules.js";
import { LocalWorkspaceBackend } from "../workspace/local-workspace-backend.js";
import type { WorkspaceBackend } from "../workspace/workspace-backend.js";
import { bashSandbox, type BashLaunch, type BashSandboxOptions, type BashSandboxStatus } from "./bash-sandbox.js";
import { bashResultChunk } from "./bash-output.js";
import {
  escapeAsk,
  escapeGranted,
  escapeRule,
  rulesForEscape,
  SANDBOX_ESCAPE_NAMES,
  SANDBOX_ESCAPES,
  type SandboxEscape,
} from "./sandbox-escape.js";

export interface BashInput {
  command: string;
  /** Milliseconds; default 120000, at most 600000. */
  timeout?: number;
  description?: string;
  run_in_background?: boolean;
  /**
   * Run this one command with more than the sandbox allows (docs/sandbox.md#escaping-the-sandbox-for-one-command):
   * `"network"` (the host's network, still sandboxed) or `"unsandboxed"`. Asked for in every mode
   * unless an allow rule names it; ignored when the tool already allows it.
   */
  sandbox_escape?: SandboxEscape;
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
   * Run commands in the OS sandbox (docs/sandbox.md#the-bash-tool): the working directories
   * writable, everything else read-only, secrets hidden, a scrubbed environment, a private /tmp, no
   * network unless allowed. `"auto"` (default: sandbox when the preflight shows it works, else warn
   * once and run unsandboxed), `"required"` (throw here when it cannot), `"off"` (never), or an
   * object with the mode and what to allow.
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
  override readonly origin = BUILTIN_ORIGIN;
  readonly description =
    "Executes a bash command in the working directory and returns its output (stdout, then stderr). " +
    "Each call runs in a fresh shell: `cd` does not persist between calls. Use `timeout` (ms, max 600000) for long commands " +
    "and `run_in_background` for servers; prefer the Read, Glob and Grep tools for reading and searching files. " +
    "Commands may run in a sandbox (no network, writes only in the working " +
    "directories, secret files hidden, credential variables unset); " +
    "when one needs more, set `sandbox_escape` and the user is asked.";
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
      sandbox_escape: {
        type: "string",
        enum: SANDBOX_ESCAPE_NAMES,
        description:
          `Only when the command cannot work in the sandbox, ask to run this one command with more: ` +
          `${SANDBOX_ESCAPE_NAMES.map((name) => `"${name}" (${SANDBOX_ESCAPES[name]})`).join(", ")}. The user is asked first.`,
      },
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
  /** The backend a command runs through: the backend itself, or the backend through the sandbox. */
  private readonly runner: (launch: BashLaunch) => WorkspaceBackend;
  private readonly analyses = new Map<string, Promise<BashAnalysis>>();
  /**
   * The context of the engine that last decided a call of this tool (a Toolkit asks it right
   * before each call): its `Read(...)` allow rules say which secrets the sandbox leaves visible.
   */
  private permissionContext: PermissionContext | undefined;

  constructor(options: BashOptions = {}) {
    super(options);
    this.backend = options.backend ?? new LocalWorkspaceBackend({ cwd: options.cwd });
    this.cwd = options.cwd ?? this.backend.cwd;
    this.dangerousPaths = dangerousPathLists(options);
    const sandbox = bashSandbox(this.backend, this.cwd, options.sandbox, this.dangerousPaths);
    this.sandboxStatus = sandbox.status;
    this.runner = sandbox.runner;
    this.escapedOptions = { cwd: this.cwd, dangerousPaths: this.dangerousPaths, toolName: this.name };
    // In a sandbox without network, edits inside its writable directories need no prompt (docs/command-policy.md#contained-edits).
    const contained = sandbox.status.sandboxed && !sandbox.status.network;
    this.permissionOptions = { ...this.escapedOptions, sandboxWritable: contained ? sandbox.status.writableDirectories : undefined };
  }

  /**
   * True when every command runs in the OS sandbox, the tool's own or the one its backend confines
   * commands to (`sandboxStatus.confinedBy`, docs/workspaces.md#bash-in-a-workspace): writes land
   * only in `sandboxStatus.writableDirectories`, and the network is reachable only if `sandboxStatus.network`.
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
  /** For a command that escapes the sandbox: nothing is contained any more. */
  private readonly escapedOptions: BashPermissionOptions;

  /** The escape a call names, when it is one. */
  private static requestedEscape(input: BashInput): SandboxEscape | undefined {
    return SANDBOX_ESCAPE_NAMES.find((name) => name === input.sandbox_escape);
  }

  /**
   * The escape a call asks for when it widens what the tool allows: none when the tool is not
   * sandboxed, and none for `network` when the sandbox has it already.
   */
  private escapeOf(input: BashInput): SandboxEscape | undefined {
    const requested = Bash.requestedEscape(input);
    if (!this.sandboxStatus.sandboxed || (requested === "network" && this.sandboxStatus.network)) return undefined;
    // A confining backend has no way out to grant: nothing is asked, and the call says so.
    if (this.sandboxStatus.confinedBy !== undefined) return undefined;
    return requested;
  }

  /** The refusal of an escape the backend cannot give; undefined when none is asked for or none is needed. */
  private confinedEscapeProblem(input: BashInput): string | undefined {
    const requested = Bash.requestedEscape(input);
    const { confinedBy, network } = this.sandboxStatus;
    if (requested === undefined || confinedBy === undefined || (requested === "network" && network)) return undefined;
    return (
      `Error: sandbox_escape "${requested}" is not available: commands run in ${confinedBy}, which the workspace ` +
      `provides and no command can leave. Run the command without sandbox_escape, or use a workspace that allows it.`
    );
  }

  override async checkReadOnly(input: BashInput, context?: PermissionContext): Promise<boolean> {
    if (context) this.permissionContext = context;
    if (typeof input.command !== "string" || input.command.trim() === "" || this.escapeOf(input)) return false;
    const analysis = await this.analyse(input.command);
    // A `Read(path)`/`Edit(path)` deny or ask rule naming a path the line touches is decided by checkPermissions.
    if (context && pathRuleVerdict(analysis, context, this.cwd) !== undefined) return false;
    return isReadOnlyBash(analysis, this.permissionOptions);
  }

  /**
   * `decideBash` with the allow rules for the escape the call names (the same ones `matchRule`
   * lets the engine apply, so a rule covering part of the line is seen as partial); an escape that
   * widens what the tool allows and that no allow rule names asks in every mode
   * (docs/sandbox.md#escaping-the-sandbox-for-one-command).
   */
  override async checkPermissions(input: BashInput, context: PermissionContext): Promise<PermissionDecision> {
    this.permissionContext = context;
    if (typeof input.command !== "string") return { behavior: PermissionBehavior.PASSTHROUGH, message: "Empty command" };
    const analysis = await this.analyse(input.command);
    const widening = this.escapeOf(input);
    const decision = decideBash(
      analysis,
      rulesForEscape(context, this.name, Bash.requestedEscape(input)),
      widening ? this.escapedOptions : this.permissionOptions,
    );
    if (widening === undefined || escapeGranted(analysis, context, this.name, widening)) return decision;
    return escapeAsk(widening, decision);
  }

  /**
   * Deny and ask rules match when ANY command of the string matches (through wrappers); see
   * checkPermissions for allow rules. A rule ending in `[sandbox_escape=NAME]` matches only calls
   * asking for that escape.
   */
  override async matchRule(ruleContent: string | undefined, input: BashInput): Promise<boolean> {
    if (!ruleContent) return true;
    if (typeof input.command !== "string") return false;
    const rule = escapeRule(ruleContent);
    if (rule.escape !== undefined && rule.escape !== Bash.requestedEscape(input)) return false;
    return ruleMatchesAnyCommand(rule.command, await this.analyse(input.command));
  }

  /** Whether a `Read(...)` allow rule of the deciding engine names `path` (a whole-tool `Read` rule names nothing). */
  private revealed(path: string): boolean {
    const context = this.permissionContext;
    if (context === undefined) return false;
    const base = ruleBaseDirectory(context, this.cwd);
    return rulesOfTool(context.allowRules, "Read").some((rule) => rule.ruleContent && matchesPathRule(rule.ruleContent, path, base));
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
    if (input.sandbox_escape !== undefined && Bash.requestedEscape(input) === undefined)
      return ToolChunk.error(
        `Error: sandbox_escape must be one of ${SANDBOX_ESCAPE_NAMES.map((name) => `"${name}"`).join(", ")}, ` +
          `got ${JSON.stringify(input.sandbox_escape)}.`,
      );
    const confinedEscape = this.confinedEscapeProblem(input);
    if (confinedEscape !== undefined) return ToolChunk.error(confinedEscape);
    const argv = ["bash", "-c", input.command];
    const runner = this.runner({ escape: this.escapeOf(input), revealed: (path) => this.revealed(path) });
    if (input.run_in_background) {
      const started = await runner.startBackground(argv, { cwd: this.cwd });
      return ToolChunk.text(`Command running in background (pid ${started.pid}); its output is written to ${started.logPath}.`, {
        metadata: { ...started },
      });
    }
    const timeoutMs = Math.min(Math.max(input.timeout ?? DEFAULT_BASH_TIMEOUT_MS, 0), MAX_BASH_TIMEOUT_MS) || DEFAULT_BASH_TIMEOUT_MS;
    const result = await runner.exec(argv, { cwd: this.cwd, timeoutMs, signal: context.signal });
    return bashResultChunk(input.command, timeoutMs, result);
  }
}
