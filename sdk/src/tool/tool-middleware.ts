import type { ToolBase } from "./tool-base.js";
import type { ToolChunk } from "./tool-chunk.js";

/** The next layer of the onion; always yields chunks, whether the tool streams or not. */
export type ToolNextHandler = (input: Record<string, unknown>) => AsyncGenerator<ToolChunk, void, undefined>;

/**
 * A hook around one tool's execution. The first middleware registered is the outermost layer. A
 * middleware may rewrite the input it passes to `next`, transform or drop chunks, answer without
 * calling `next` (short-circuit) or call `next` again (retry).
 */
export abstract class ToolMiddlewareBase {
  abstract onToolCall(tool: ToolBase<any>, input: Record<string, unknown>, next: ToolNextHandler): AsyncIterable<ToolChunk>;
}

/** The same hook as a plain async generator function. */
export type ToolMiddlewareFunction = ToolMiddlewareBase["onToolCall"];

export type ToolMiddleware = ToolMiddlewareBase | ToolMiddlewareFunction;
