import type { McpServerErrorCode } from "../error-codes.js";
import { AgentToolsError } from "../errors.js";

/**
 * An MCP server configured wrongly, unreachable, or failing a request. `server` names it, so an
 * agent host with several servers can say which one to fix.
 */
export class McpServerError extends AgentToolsError<McpServerErrorCode> {
  readonly server: string | undefined;

  constructor(code: McpServerErrorCode, message: string, options: { server?: string; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.server = options.server;
  }
}
