import type { AgentToolsErrorCode } from "./error-codes.js";

/**
 * The root of every error the SDK throws. `code` is stable and machine-readable (one of
 * `ERROR_CODES`, listed in docs/errors.md);
 * `message` says what went wrong and how to fix it. Each area defines its own
 * subclasses (registry client, archive, runtimes, permission, tools) next to its code.
 */
export class AgentToolsError<Code extends AgentToolsErrorCode = AgentToolsErrorCode> extends Error {
  readonly code: Code;
  readonly toolId: string | undefined;

  constructor(code: Code, message: string, options: { toolId?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.toolId = options.toolId;
  }
}

/** `text` as one sentence ending in a single full stop, for messages that append a quoted detail ("…/tools." + "." would read "..."). */
export function asSentence(text: string): string {
  return `${text.trimEnd().replace(/[.]+$/, "")}.`;
}
