import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { toolWithExecute } from "./python-tool-folder.js";

/**
 * Writes a local Python tool bundle folder (`spec.json` with an optional `tool_capabilities`, and
 * `code/function.py` whose `execute` runs `body`), as an author would before uploading it.
 */
export async function writeSandboxTool(dir: string, toolId: string, body: string, capabilities?: Record<string, unknown>): Promise<string> {
  const toolDir = join(dir, toolId);
  await mkdir(join(toolDir, "code"), { recursive: true });
  const spec = { tool_id: toolId, tool_runtime_type: "python", ...(capabilities === undefined ? {} : { tool_capabilities: capabilities }) };
  await writeFile(join(toolDir, "spec.json"), JSON.stringify(spec));
  await writeFile(join(toolDir, "code", "function.py"), toolWithExecute(body));
  return toolDir;
}
