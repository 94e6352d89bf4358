import { ArchiveError } from "../archive/archive-error.js";
import type { ArchiveEntry } from "../archive/archive-entry.js";
import { readArchive } from "../archive/archive-reader.js";
import { readToolArchive } from "../archive/tool-archive.js";
import { findBinaryExecutable, findPythonEntry } from "../archive/tool-layout.js";
import { isPythonRuntime } from "../registry-client/tool-record.js";
import {
  EXECUTABLE_HEAD_BYTES,
  describeExecutable,
  executableFormat,
  executableMismatch,
  executablePlatform,
} from "../tool-spec/executable-format.js";
import { specProblems } from "../tool-spec/spec-problems.js";
import { platformArchiveName, platformKey, type ToolPlatform } from "../tool-spec/tool-platforms.js";
import { isPlainObject } from "../tool-spec/value-description.js";
import { checkPythonSyntax, type PythonSource } from "./python-syntax.js";
import type { ToolProblem } from "./tool-check-error.js";

export interface BundleCheckOptions {
  /** The Python that compiles Python sources. Default `python3`. */
  pythonPath?: string;
  /**
   * How a file inside an archive is named in problems: `pack` names the folder it came from. Default:
   * `code/…` for tool.zip, `<archive> code/…` for the others.
   */
  fileName?: (archive: string, entryPath: string) => string;
}

export interface BundleCheck {
  toolId: string | undefined;
  problems: ToolProblem[];
  /** What publishes but may be a mistake, or what could not be checked (no Python). */
  warnings: string[];
}

/** The skills' tool type: a folder of instructions, nothing runs. */
const SKILL_TOOL_TYPE = "skill";
const PLATFORM_ARCHIVE = /^tool-[^/]+\.zip$/;

/**
 * What the registry would refuse in a bundle, and what would fail at the first call, found before
 * anything is uploaded (docs/authoring.md#checks-before-publishing): spec.json by the registry's own
 * rules (`specProblems`), every archive through the archive guards and its runtime's layout, Python
 * sources compiled (syntax errors with file and line; nothing runs), and each executable's format
 * against its declared platform. Every problem at once. `pack` checks what it built; `publish` of a
 * bundle file checks that file.
 */
export async function checkBundle(bundle: Uint8Array, options: BundleCheckOptions = {}): Promise<BundleCheck> {
  const name = options.fileName ?? ((archive: string, path: string) => (archive === "tool.zip" ? path : `${archive} ${path}`));
  const problems: ToolProblem[] = [];
  const warnings: string[] = [];
  let files: Map<string, Uint8Array>;
  try {
    files = new Map(
      readArchive(bundle)
        .entries.filter((entry) => entry.type === "file")
        .map((entry) => [entry.path, entry.data]),
    );
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    return { toolId: undefined, problems: [{ file: "bundle", message: error.message }], warnings };
  }
  const spec = readSpec(files.get("spec.json"), problems);
  if (spec === undefined) return { toolId: undefined, problems, warnings };
  const toolId = typeof spec.tool_id === "string" ? spec.tool_id : undefined;
  problems.push(...specProblems(spec).map((problem) => ({ file: "spec.json", path: problem.path, message: problem.message })));

  const sources: PythonSource[] = [];
  const runtime = typeof spec.tool_runtime_type === "string" ? spec.tool_runtime_type : "";
  for (const { archive, platform } of declaredArchives(spec, files, problems)) {
    const bytes = files.get(archive);
    if (bytes === undefined) continue;
    let entries: ArchiveEntry[];
    try {
      const tool = readToolArchive(bytes);
      entries = tool.entries;
      if (spec.tool_type === SKILL_TOOL_TYPE) continue;
      if (isPythonRuntime({ tool_runtime_type: runtime })) findPythonEntry(tool);
      else checkExecutable(findBinaryExecutable(tool), platform, (path) => name(archive, path), problems, warnings);
    } catch (error) {
      if (!(error instanceof ArchiveError)) throw error;
      problems.push({ file: archive, message: error.message });
      continue;
    }
    if (isPythonRuntime({ tool_runtime_type: runtime }))
      for (const entry of entries)
        if (entry.type === "file" && entry.path.endsWith(".py")) sources.push({ path: name(archive, entry.path), data: entry.data });
  }

  const compiled = await checkPythonSyntax(sources, options.pythonPath);
  if (compiled.checked) problems.push(...compiled.errors.map(({ path, ...where }) => ({ file: path, ...where })));
  else warnings.push(`Python syntax was not checked: ${compiled.reason} (set the Python to use with pythonPath).`);
  return { toolId, problems, warnings };
}

function readSpec(bytes: Uint8Array | undefined, problems: ToolProblem[]): Record<string, unknown> | undefined {
  if (bytes === undefined) {
    problems.push({ file: "spec.json", message: "the bundle has no spec.json at its root" });
    return undefined;
  }
  let spec: unknown;
  try {
    spec = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    problems.push({ file: "spec.json", message: `not valid JSON (${(error as Error).message})` });
    return undefined;
  }
  if (isPlainObject(spec)) return spec;
  problems.push({ file: "spec.json", message: 'must be a JSON object ({"tool_id": ..., ...})' });
  return undefined;
}

/** tool.zip alone, or one archive per declared platform; a declared one that is missing, or one nobody declared, is a problem. */
function declaredArchives(
  spec: Record<string, unknown>,
  files: ReadonlyMap<string, Uint8Array>,
  problems: ToolProblem[],
): { archive: string; platform: ToolPlatform | undefined }[] {
  const declared =
    Array.isArray(spec.tool_platforms) && spec.tool_platforms.every(isPlainObject)
      ? (spec.tool_platforms as unknown as ToolPlatform[])
      : [];
  const archives =
    declared.length === 0
      ? [{ archive: "tool.zip", platform: undefined }]
      : declared.map((platform, index) => ({ archive: platformArchiveName(platform, index), platform }));
  for (const { archive, platform } of archives)
    if (!files.has(archive))
      problems.push({
        file: archive,
        message:
          `missing: ` +
          `${platform === undefined ? "the code archive" : `the build for ${platformKey(platform)}, which tool_platforms declares`}`,
      });
  for (const file of files.keys())
    if (PLATFORM_ARCHIVE.test(file) && !archives.some(({ archive }) => archive === file))
      problems.push({ file, message: "a platform's archive that tool_platforms does not declare: declare its platform, or remove it" });
  return archives;
}

/**
 * The executable against its declared platform; without one, a native program is published but agents
 * elsewhere get a clear refusal only if it is declared.
 */
function checkExecutable(
  executable: ArchiveEntry,
  platform: ToolPlatform | undefined,
  fileName: (path: string) => string,
  problems: ToolProblem[],
  warnings: string[],
): void {
  const format = executableFormat(executable.data.subarray(0, EXECUTABLE_HEAD_BYTES));
  const file = fileName(executable.path);
  if (platform !== undefined) {
    const mismatch = executableMismatch(format, platform);
    if (mismatch !== undefined)
      problems.push({
        file,
        message:
          `declared for ${platformKey(platform)} in tool_platforms, but ${mismatch}; ` +
          `build it for that platform, or declare the one it is built for`,
      });
    return;
  }
  if (format.kind === "unknown") {
    problems.push({ file, message: `${describeExecutable(format)}; ship a compiled program or a script starting with #!` });
    return;
  }
  const own = executablePlatform(format);
  if (own !== undefined)
    warnings.push(
      `${file} is ${describeExecutable(format)}, but spec.json declares no tool_platforms: agents on ` +
        `other platforms get a clear refusal only if it does. Add "tool_platforms": [${JSON.stringify(own)}].`,
    );
}
