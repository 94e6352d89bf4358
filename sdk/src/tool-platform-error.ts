// Raised where an archive is chosen (the cache) and where an executable is started (the runtimes):
// here at the root, like tool-load-error.ts, so that neither folder imports the other back.
import { AgentToolsError } from "./errors.js";
import { platformKey, type ToolPlatform } from "./tool-spec/tool-platforms.js";

/**
 * No archive of the tool fits this host, or its executable is built for another platform
 * (docs/authoring.md#platforms). Nothing ran. `host` is this machine's platform; `available` the
 * platforms the tool is built for, when it declares them.
 */
export class ToolPlatformError extends AgentToolsError<"TOOL_PLATFORM_UNSUPPORTED"> {
  readonly host: ToolPlatform;
  readonly available: ToolPlatform[];

  constructor(toolId: string, reason: string, host: ToolPlatform, available: ToolPlatform[] = []) {
    super("TOOL_PLATFORM_UNSUPPORTED", `Tool "${toolId}" cannot run on this host (${platformKey(host)}): ${reason}`, { toolId });
    this.host = host;
    this.available = available;
  }
}
