import { AgentToolsError } from "../errors.js";

/** A tool misused or misbehaving (no `call`, bad chunk stream, invalid schema...). */
export class ToolError extends AgentToolsError {}
