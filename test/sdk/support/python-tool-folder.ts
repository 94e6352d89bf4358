import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Writes a local Python tool folder (`<dir>/<name>/code/function.py` and any extra files under
 * `code/`), the layout docs/authoring.md's "test it locally" uses, and returns the tool folder.
 */
export async function writePythonTool(
  dir: string,
  name: string,
  functionPy: string,
  extra: Record<string, string | Uint8Array> = {},
): Promise<string> {
  const toolDir = join(dir, name);
  await mkdir(join(toolDir, "code"), { recursive: true });
  await writeFile(join(toolDir, "code", "function.py"), functionPy);
  for (const [path, text] of Object.entries(extra)) {
    await mkdir(join(toolDir, "code", path, ".."), { recursive: true });
    await writeFile(join(toolDir, "code", path), text);
  }
  return toolDir;
}

/** A tool class whose `execute` body is `body` (indented by the caller's 8 spaces). */
export function toolWithExecute(body: string, constructorBody = "pass"): string {
  return [
    "class AgentSpaceV1Tool:",
    "    def __init__(self, tool_id, tool_data):",
    `        ${constructorBody}`,
    "    def execute(self, input_data):",
    ...body.split("\n").map((line) => `        ${line}`),
    "",
  ].join("\n");
}
