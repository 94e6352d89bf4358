import { findBinaryExecutable, findPythonEntry, readToolArchive, type ArchiveFormat, type ArchiveLimits } from "@agent-tools/sdk/archive";
import { archiveRejection } from "./archive-rejection.js";
import { SKILL_TOOL_TYPE, checkSkillArchive } from "./skill-archive.js";

/** `"python"` and `""` select the Python runtime (seed rule); any other value is a binary tool. */
export function isPythonRuntime(runtime: string): boolean {
  return runtime === "python" || runtime === "";
}

/**
 * Checks `tool.zip` as the runtime will use it: a zip or tar.gz (by content) passing every
 * archive guard, with `code/SKILL.md` for a skill, `code/function.py` for Python or exactly one
 * executable for binaries.
 */
export function inspectToolZip(toolZip: Uint8Array, runtime: string, limits: ArchiveLimits, toolType = ""): ArchiveFormat {
  try {
    const archive = readToolArchive(toolZip, limits);
    if (toolType === SKILL_TOOL_TYPE) checkSkillArchive(archive);
    else if (isPythonRuntime(runtime)) findPythonEntry(archive);
    else findBinaryExecutable(archive);
    return archive.format;
  } catch (error) {
    throw archiveRejection(error, "tool.zip", 422);
  }
}
