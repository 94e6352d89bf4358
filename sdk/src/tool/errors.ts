import type { ToolErrorCode } from "../error-codes.js";
import { AgentToolsError } from "../errors.js";

/** A tool misused or misbehaving (no `call`, bad chunk stream, invalid schema...). */
export class ToolError extends AgentToolsError<ToolErrorCode> {}
