import { findBinaryExecutable, findPythonEntry, readToolArchive, type ArchiveFormat, type ArchiveLimits } from "@agent-tools/sdk/archive";
import { EXECUTABLE_HEAD_BYTES, executableFormat, executableMismatch, platformKey, type ToolPlatform } from "@agent-tools/sdk/tool-spec";
import { HttpProblem } from "../http-problem.js";
import { archiveRejection, PROCESSING_FAILED } from "./archive-rejection.js";
import { SKILL_TOOL_TYPE, checkSkillArchive } from "./skill-archive.js";

/** `"python"` and `""` select the Python runtime (seed rule); any other value is a binary tool. */
export function isPythonRuntime(runtime: string): boolean {
  return runtime === "python" || runtime === "";
}

/** How the tool runs and, for a binary built for one platform, which (`tool_platforms`). */
export interface ToolArchiveRole {
  runtime: string;
  toolType?: string;
  platform?: ToolPlatform | undefined;
  /** The archive's name in the bundle, for the detail (`tool.zip`, `tool-linux-arm64.zip`). */
  name?: string;
}

/**
 * Checks a tool archive as the runtime will use it: a zip or tar.gz (by content) passing every
 * archive guard, with `code/SKILL.md` for a skill, `code/function.py` for Python or exactly one
 * executable for binaries, and that executable's format (ELF, Mach-O, PE or a script) fit for
 * its declared platform.
 */
export function inspectToolZip(toolZip: Uint8Array, role: ToolArchiveRole, limits: ArchiveLimits): ArchiveFormat {
  const name = role.name ?? "tool.zip";
  try {
    const archive = readToolArchive(toolZip, limits);
    if (role.toolType === SKILL_TOOL_TYPE) checkSkillArchive(archive);
    else if (isPythonRuntime(role.runtime)) findPythonEntry(archive);
    else {
      const executable = findBinaryExecutable(archive);
      if (role.platform !== undefined) checkExecutable(name, executable.path, executable.data, role.platform);
    }
    return archive.format;
  } catch (error) {
    throw archiveRejection(error, name, 422);
  }
}

function checkExecutable(name: string, path: string, data: Uint8Array, platform: ToolPlatform): void {
  const mismatch = executableMismatch(executableFormat(data.subarray(0, EXECUTABLE_HEAD_BYTES)), platform);
  if (mismatch === undefined) return;
  const key = platformKey(platform);
  throw new HttpProblem(
    422,
    PROCESSING_FAILED,
    `${name}: ${path} is declared for ${key} in tool_platforms, but ` +
      `${mismatch}. Build it for ${key}, or declare the platform it is built for.`,
    {},
    "INVALID_ARCHIVE",
  );
}
