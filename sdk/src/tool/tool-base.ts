import type { PermissionSubject, ToolOrigin } from "../permission/permission-subject.js";
import { effectiveWorkingDirectories, isPathInWorkingDirectories } from "../permission/working-directories.js";
import {
  PermissionBehavior,
  type PermissionContext,
  type PermissionDecision,
  type PermissionRule,
  type RuleMatchContext,
} from "../permission/types.js";
import type { AgentState } from "./agent-state.js";
import { ToolError } from "./errors.js";
import { isToolChunk, type ToolChunk } from "./tool-chunk.js";

export type Awaitable<T> = T | Promise<T>;

/** The next layer of the onion; always yields chunks, whether the tool streams or not. */
export type ToolNextHandler = (input: Record<string, unknown>) => AsyncGenerator<ToolChunk, void, undefined>;

/**
 * A hook around one tool's execution, declared beside ToolBase because each holds the other. The
 * first middleware registered is the outermost layer. A middleware may rewrite the input it
 * passes to `next`, transform or drop chunks, answer without calling `next` (short-circuit) or
 * call `next` again (retry).
 */
export abstract class ToolMiddlewareBase {
  abstract onToolCall(tool: ToolBase<any>, input: Record<string, unknown>, next: ToolNextHandler): AsyncIterable<ToolChunk>;
}

/** The same hook as a plain async generator function. */
export type ToolMiddlewareFunction = ToolMiddlewareBase["onToolCall"];

export type ToolMiddleware = ToolMiddlewareBase | ToolMiddlewareFunction;

/** A tool's parameters: a JSON Schema whose root is an object. */
export interface ToolInputSchema {
  type: "object";
  properties: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

/** What `call()` may return: one chunk, or a stream of them (possibly behind a promise). */
export type ToolCallResult = Awaitable<ToolChunk | AsyncIterable<ToolChunk>>;

/** Per-call extras the framework passes beside the input. */
export interface ToolCallContext {
  /** The agent state, given to tools with `isStateInjected`. */
  state?: AgentState | undefined;
  /** Aborted when the user interrupts the call. */
  signal?: AbortSignal | undefined;
  /** The id of the tool call being executed, when run by a Toolkit. */
  toolCallId?: string | undefined;
}

/** The origin of the SDK's own tools: the only ones that answer to reserved names (`Read`, `Skill`, …). */
export const BUILTIN_ORIGIN: ToolOrigin = Object.freeze({ kind: "builtin" });
const CUSTOM_ORIGIN: ToolOrigin = Object.freeze({ kind: "custom" });

export interface ToolBaseOptions {
  /** Onion hooks around `call()`; the first is the outermost. */
  middlewares?: ToolMiddleware[];
}

/**
 * The interface every tool satisfies (docs/design/permission-model.md). Subclasses declare the descriptive
 * attributes, implement `checkPermissions` and `call`, and optionally refine `checkReadOnly`,
 * `matchRule` and `generateSuggestions`. The framework runs tools through `invoke()`.
 */
export abstract class ToolBase<Input = Record<string, unknown>> implements PermissionSubject<Input> {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly inputSchema: ToolInputSchema;
  isConcurrencySafe = false;
  isReadOnly = false;
  /** Execution is delegated outside the agent (a human or another system); no `call()` needed. */
  isExternalTool = false;
  isStateInjected = false;
  isMcp = false;
  mcpName: string | undefined = undefined;
  /**
   * JSON Schema (an object) of what a successful call returns, when the tool declares one: MCP
   * hosts get it as the tool's `outputSchema` and the result as `structuredContent` (docs/mcp.md).
   */
  outputSchema: ToolInputSchema | undefined = undefined;
  /**
   * Other tools whose rules govern this one too: Grep and Glob list `Read`, so one `Read(...)` rule
   * (allow, ask or deny) covers every read tool. The rule's content goes to this tool's `matchRule`.
   */
  readonly sharesRulesWith: readonly string[] = [];
  /**
   * Where the tool comes from (docs/permissions.md#one-namespace-for-tools): `custom` for tools an
   * application writes; the SDK's built-ins, registry tools and MCP tools say so, so rules can name
   * the source (`builtin:Read`) and only the built-in may take a reserved name.
   */
  readonly origin: ToolOrigin = CUSTOM_ORIGIN;

  private readonly middlewares: ToolMiddleware[];

  constructor(options: ToolBaseOptions = {}) {
    this.middlewares = [...(options.middlewares ?? [])];
  }

  /** The tool's own verdict for this call; PASSTHROUGH hands it to the engine's rules and mode. */
  abstract checkPermissions(input: Input, context: PermissionContext): Awaitable<PermissionDecision>;

  /**
   * Whether this particular call only reads what the agent may read unasked; the engine
   * auto-allows such calls in every mode. The engine passes its context (working directories,
   * project root); a tool that ignores it stays compatible.
   */
  checkReadOnly(_input: Input, _context?: PermissionContext): Awaitable<boolean> {
    return this.isReadOnly;
  }

  /**
   * Whether a rule's content covers this call. By default only whole-tool rules match. The engine
   * passes the rule's list and tool name with its context, so relative rule paths can resolve
   * against the project root (`ruleBaseDirectory`) rather than the process.
   */
  matchRule(ruleContent: string | undefined, _input: Input, _context?: RuleMatchContext): Awaitable<boolean> {
    return !ruleContent;
  }

  /** Rules to offer the user when asking; by default "always allow this tool". */
  generateSuggestions(_input: Input, _context?: PermissionContext): Awaitable<PermissionRule[]> {
    return [{ toolName: this.name, behavior: PermissionBehavior.ALLOW, source: "suggested" }];
  }

  /** The execution logic. External tools leave it out. */
  call(_input: Input, _context: ToolCallContext): ToolCallResult {
    throw new ToolError(
      "TOOL_NOT_CALLABLE",
      `Tool "${this.name}" has no call() implementation. Implement call(), or set isExternalTool = true so the agent delegates it.`,
    );
  }

  /** Adds a middleware as the innermost layer so far; returns the tool for chaining. */
  use(middleware: ToolMiddleware): this {
    this.middlewares.push(middleware);
    return this;
  }

  /** Runs the middleware onion, then `call()`, as one stream of chunks. Do not override. */
  invoke(input: Input, context: ToolCallContext = {}): AsyncGenerator<ToolChunk, void, undefined> {
    const innermost: ToolNextHandler = (next) => this.streamCall(next as Input, context);
    const chain = this.middlewares.reduceRight<ToolNextHandler>(
      (next, middleware) => (layerInput) => runLayer(middleware, this, layerInput, next),
      innermost,
    );
    return chain(input as Record<string, unknown>);
  }

  /**
   * Inside a configured working directory (docs/design/permission-model.md, "Working directories and paths")
   * (the host cwd when none is).
   */
  protected isInWorkingDirectory(path: string, context: PermissionContext): boolean {
    return isPathInWorkingDirectories(path, effectiveWorkingDirectories(context));
  }

  private async *streamCall(input: Input, context: ToolCallContext): AsyncGenerator<ToolChunk, void, undefined> {
    const output = await this.call(input, context);
    if (isToolChunk(output)) {
      yield output;
      return;
    }
    yield* output;
  }
}

async function* runLayer(
  middleware: ToolMiddleware,
  tool: ToolBase<any>,
  input: Record<string, unknown>,
  next: ToolNextHandler,
): AsyncGenerator<ToolChunk, void, undefined> {
  yield* middleware instanceof ToolMiddlewareBase ? middleware.onToolCall(tool, input, next) : middleware(tool, input, next);
}
