import { z } from "zod";
import { PermissionBehavior, type PermissionDecision } from "../permission/types.js";
import { ToolError } from "./errors.js";
import { ToolBase, type ToolBaseOptions, type ToolCallContext, type ToolInputSchema } from "./tool-base.js";
import { ToolChunk, isToolChunk } from "./tool-chunk.js";

export interface FunctionToolOptions extends ToolBaseOptions {
  /** Defaults to the function's own name. */
  name?: string;
  description?: string;
  /** A JSON Schema for the input object, or a zod object schema (converted with `z.toJSONSchema`, and used to parse the input). */
  inputSchema?: ToolInputSchema | z.ZodType;
  /** Default true: plain functions rarely share state. */
  isConcurrencySafe?: boolean;
  isReadOnly?: boolean;
  isStateInjected?: boolean;
  /**
   * Without a `description` or an `inputSchema` the model sees an undescribed function, or one that
   * takes no parameters (docs/design/builtin-tools.md#function-tool). `"warn"` (default) says so once
   * per tool name, at construction, through `onWarning`; `"refuse"` throws `ToolError`
   * (`TOOL_UNDESCRIBED`) instead; `"allow"` says nothing, for a function that really needs neither.
   */
  undescribed?: "warn" | "refuse" | "allow";
  /** Receives the `"warn"` message. Default `console.warn`. */
  onWarning?: (message: string) => void;
}

/** A function wrapped as a tool. It may return a value, a promise, or a (sync or async) generator to stream. */
export type ToolFunction<Input> = (input: Input, context: ToolCallContext) => unknown;

const ASK_MESSAGE = "Custom function tools must be explicitly allowed by the user.";

/**
 * Turns a plain function into a tool. Its permission is a plain ASK, so a call runs only once an
 * allow rule, the user, or BYPASS mode lets it; DONT_ASK denies it.
 */
export class FunctionTool<Input = Record<string, unknown>> extends ToolBase<Input> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  private readonly fn: ToolFunction<Input>;
  private readonly zodSchema: z.ZodType | undefined;

  constructor(fn: ToolFunction<Input>, options: FunctionToolOptions = {}) {
    super(options);
    const name = options.name ?? fn.name;
    if (!name) {
      throw new ToolError("TOOL_NAME_MISSING", "FunctionTool needs a name: pass { name } or wrap a named function.");
    }
    this.fn = fn;
    this.name = name;
    this.description = options.description ?? "";
    this.zodSchema = options.inputSchema instanceof z.ZodType ? options.inputSchema : undefined;
    this.inputSchema = this.zodSchema
      ? jsonSchemaFromZod(this.zodSchema, name)
      : ((options.inputSchema as ToolInputSchema | undefined) ?? { type: "object", properties: {} });
    reportUndescribed(this, options);
    this.isConcurrencySafe = options.isConcurrencySafe ?? true;
    this.isReadOnly = options.isReadOnly ?? false;
    this.isStateInjected = options.isStateInjected ?? false;
  }

  checkPermissions(): PermissionDecision {
    return { behavior: PermissionBehavior.ASK, message: ASK_MESSAGE };
  }

  override async *call(input: Input, context: ToolCallContext): AsyncGenerator<ToolChunk, void, undefined> {
    const parsed = this.zodSchema ? (this.zodSchema.parse(input) as Input) : input;
    const output = await this.fn(parsed, context);
    if (isIterableStream(output)) {
      for await (const value of output) yield toChunk(value, false);
      return;
    }
    yield toChunk(output, true);
  }
}

/** Tool names already warned about in this process: one warning per name, however often it is built. */
const warnedNames = new Set<string>();

/** What the model would miss about `tool`, said (or refused) as `options.undescribed` asks. */
function reportUndescribed(tool: FunctionTool<any>, options: FunctionToolOptions): void {
  const policy = options.undescribed ?? "warn";
  if (policy !== "warn" && policy !== "refuse" && policy !== "allow") {
    throw new ToolError(
      "TOOL_OPTIONS_INVALID",
      `FunctionTool "${tool.name}": undescribed must be "warn", "refuse" or "allow", got ${JSON.stringify(policy)}.`,
    );
  }
  const missing = [
    tool.description.trim() === "" ? "no description" : undefined,
    options.inputSchema === undefined ? `no parameters (${JSON.stringify(tool.inputSchema)})` : undefined,
  ].filter((part) => part !== undefined);
  if (missing.length === 0 || policy === "allow") return;
  const message =
    `FunctionTool "${tool.name}": the model will see a function with ` +
    `${missing.join(" and ")}, so it cannot tell what the tool does or what to pass. ` +
    'Pass { description } and { inputSchema } (a JSON Schema or a zod object), or { undescribed: "allow" } when that is intended.';
  if (policy === "refuse") throw new ToolError("TOOL_UNDESCRIBED", message);
  if (warnedNames.has(tool.name)) return;
  warnedNames.add(tool.name);
  (options.onWarning ?? console.warn)(message);
}

/** A ToolChunk passes through; a string becomes text; anything else is shown as JSON. */
function toChunk(value: unknown, isLast: boolean): ToolChunk {
  if (isToolChunk(value)) return value;
  if (typeof value === "string") return ToolChunk.text(value, { isLast });
  if (value === undefined) return new ToolChunk({ isLast });
  return ToolChunk.text(JSON.stringify(value), { isLast });
}

function isIterableStream(value: unknown): value is AsyncIterable<unknown> | Iterable<unknown> {
  if (value === null || typeof value !== "object") return false;
  // Arrays and other plain iterables are values, not streams: only generators stream.
  return Symbol.asyncIterator in value || (Symbol.iterator in value && "next" in value && "throw" in value);
}

function jsonSchemaFromZod(schema: z.ZodType, name: string): ToolInputSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { target: "draft-07", io: "input" }) as Record<string, unknown>;
  if (json["type"] !== "object") {
    throw new ToolError(
      "TOOL_SCHEMA_INVALID",
      `FunctionTool "${name}": the zod schema must describe an object (z.object({...})), got type ${JSON.stringify(json["type"])}.`,
    );
  }
  return { properties: {}, ...json, type: "object" };
}
