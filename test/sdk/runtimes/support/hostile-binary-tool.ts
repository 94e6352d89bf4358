import { chmod, copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileC } from "../../../support/bundles.js";

/** The C source of the hostile binary tool: its request's input names the attack (see the file). */
export const HOSTILE_OUTPUT_SOURCE = fileURLToPath(new URL("../../../fixtures/binaries/hostile-output.c", import.meta.url));

/**
 * Writes a local binary tool folder `<dir>/<toolId>` running the hostile binary (compiled once,
 * see `compileC`), with an optional `tool_capabilities`; returns the folder.
 */
export async function writeHostileBinaryTool(dir: string, toolId: string, capabilities?: Record<string, unknown>): Promise<string> {
  const toolDir = join(dir, toolId);
  await mkdir(join(toolDir, "code"), { recursive: true });
  const executable = join(toolDir, "code", "hostile");
  await copyFile(await compileC(HOSTILE_OUTPUT_SOURCE, "hostile-output"), executable);
  await chmod(executable, 0o755);
  const spec = { tool_id: toolId, tool_runtime_type: "binary", ...(capabilities === undefined ? {} : { tool_capabilities: capabilities }) };
  await writeFile(join(toolDir, "spec.json"), JSON.stringify(spec));
  return toolDir;
}
