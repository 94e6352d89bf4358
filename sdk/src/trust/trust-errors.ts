import type { TrustErrorCode } from "../error-codes.js";
import { AgentToolsError } from "../errors.js";

export type { TrustErrorCode } from "../error-codes.js";

/** The root of publisher-trust refusals: `code` says which rule refused, the message how to go on. */
export class TrustError extends AgentToolsError<TrustErrorCode> {
  constructor(code: TrustErrorCode, message: string, options: { toolId?: string; cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** A yanked version reached through "latest": only an exact pin (`id@1.2.3`) runs it. */
export class ToolYankedError extends TrustError {
  readonly version: string;
  /** The publisher's reason, as the registry gave it (control characters removed). */
  readonly reason: string;

  constructor(toolId: string, version: string, reason: string) {
    super(
      "TOOL_YANKED",
      `Tool "${toolId}" version ${version} was yanked by its publisher: ${reason} Pick another ` +
        `version, or pin this one exactly with add("${toolId}@${version}") if you must run it.`,
      { toolId },
    );
    this.version = version;
    this.reason = reason;
  }
}
