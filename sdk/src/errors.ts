/**
 * The root of every error the SDK throws. `code` is stable and machine-readable;
 * `message` says what went wrong and how to fix it. Each area defines its own
 * subclasses (registry client, archive, runtimes, permission, tools) next to its code.
 */
export class AgentToolsError extends Error {
  readonly code: string;
  readonly toolId: string | undefined;

  constructor(code: string, message: string, options: { toolId?: string; cause?: unknown } = {}) {
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
