import { gzipSync, zipSync, type Zippable } from "fflate";
import { lstat, readdir, readFile } from "node:fs/promises";
import { basename, join, relative, sep } from "node:path";
import { detectArchiveFormat, writeTar, type TarInputEntry } from "../archive/index.js";
import { isPythonRuntime } from "../registry-client/tool-record.js";
import { MISSING_VERSION_WARNING } from "../tool-spec/tool-spec-schema.js";
import { PLATFORMS_FOLDER, platformArchiveName, platformKey, type ToolPlatform } from "../tool-spec/tool-platforms.js";
import { specProblems } from "../tool-spec/spec-problems.js";
import { checkBundle } from "./bundle-checks.js";
import { PackError } from "./publish-errors.js";
import { ToolCheckError } from "./tool-check-error.js";

export interface PackedTool {
  toolId: string;
  /** `tool_metadata.version`, or `0.0.0` as the registry assumes when there is none. */
  version: string;
  /** Built: `zip` for Python tools, `tar.gz` for binaries (zip tools commonly drop the exec bit); or what a ready `tool.zip` holds. */
  archiveFormat: "zip" | "tar.gz";
  /** The upload bundle: `spec.json`, `tool.zip`, `tool.md` at the root. */
  bundle: Uint8Array;
  /** What will publish but is probably a mistake (no version, no platform declared), or what could not be checked. */
  warnings: string[];
}

/** Fixed timestamps make packing reproducible: the same folder always gives the same archive hash. */
const ZIP_MTIME = new Date("1980-01-02T00:00:00Z");
const SKIPPED_NAMES = new Set(["__pycache__", ".DS_Store"]);

export interface PackOptions {
  /** The Python that compiles the tool's Python sources (nothing runs). Default `python3`. */
  pythonPath?: string;
}

/**
 * Builds the upload bundle from a tool folder laid out as docs/authoring.md describes (docs/design/compatibility.md#layout):
 * `spec.json`, `tool.md` and `code/` (or a ready `tool.zip` when there is no `code/`; or, for a binary
 * built for several platforms, `platforms/<os>-<arch>[-<libc>]/code/` per declared platform), then
 * checks it as the registry and the agent will (`checkBundle`): a `ToolCheckError` lists every
 * problem at once, so nothing the registry refuses or that fails at the first call is published.
 */
export async function packTool(toolDir: string, options: PackOptions = {}): Promise<PackedTool> {
  const specBytes = await readRequired(toolDir, "spec.json", "the registry entry (tool_id, tool_runtime_type, tool_api_spec, …)");
  const spec = parseSpec(specBytes, toolDir);
  const manPage = await readRequired(toolDir, "tool.md", "the Markdown documentation stored as tool_man_page_doc");
  // Which builds to pack follows from tool_platforms: when it is wrong, say so (with the spec's other problems) before packing.
  const problems = specProblems(spec as unknown as Record<string, unknown>);
  if (problems.some((problem) => problem.path.startsWith("tool_platforms")))
    throw new ToolCheckError(
      spec.tool_id,
      problems.map(({ path, message }) => ({ file: "spec.json", path, message })),
    );
  const builds = await toolBuilds(toolDir, spec);
  const archives = await Promise.all(builds.map((build) => buildArchive(toolDir, spec, build)));
  const [primary] = archives as [Uint8Array];
  const archiveFormat = detectArchiveFormat(primary);
  if (archiveFormat !== "zip" && archiveFormat !== "tar.gz") {
    throw new PackError(
      `${join(toolDir, "tool.zip")} is neither a zip nor a tar.gz: rebuild it ` +
        `with \`zip -r tool.zip code\` (or \`tar czf tool.zip code\` for a binary).`,
      { toolId: spec.tool_id },
    );
  }
  const bundle = zipSync({
    "spec.json": [specBytes, { mtime: ZIP_MTIME }],
    ...Object.fromEntries(builds.map((build, index) => [build.archive, [archives[index]!, { mtime: ZIP_MTIME, level: 0 }]])),
    "tool.md": [manPage, { mtime: ZIP_MTIME }],
  });
  const folderOf = new Map(builds.map((build) => [build.archive, build.folder]));
  const check = await checkBundle(bundle, {
    ...options,
    fileName: (archive, path) =>
      join(folderOf.get(archive) ?? "", path)
        .split(sep)
        .join("/"),
  });
  if (check.problems.length > 0) throw new ToolCheckError(spec.tool_id, check.problems);
  const declared = typeof spec.tool_metadata?.version === "string" && spec.tool_metadata.version !== "";
  const version = declared ? (spec.tool_metadata!.version as string) : "0.0.0";
  const warnings = [...(declared ? [] : [MISSING_VERSION_WARNING]), ...check.warnings];
  return { toolId: spec.tool_id, version, archiveFormat, bundle, warnings };
}

/** One archive the bundle carries: its name there, the folder (relative to the tool folder) its `code/` comes from. */
interface ToolBuild {
  archive: string;
  /** `""` for `code/` (or a ready tool.zip), `platforms/<key>` for a platform's build. */
  folder: string;
}

/**
 * `code/` as tool.zip; or, when spec.json declares several platforms, `platforms/<key>/code/` per
 * platform (tool.zip for the first). A folder for an undeclared platform, or a declared one
 * without a folder, is a mistake the author sees before packing.
 */
async function toolBuilds(toolDir: string, spec: SpecFields): Promise<ToolBuild[]> {
  const platforms = Array.isArray(spec.tool_platforms) ? (spec.tool_platforms as ToolPlatform[]) : [];
  const folders = await readdir(join(toolDir, PLATFORMS_FOLDER)).catch(() => undefined);
  if (folders === undefined) {
    if (platforms.length > 1)
      throw new PackError(
        `spec.json declares ${platforms.length} platforms (${platforms.map(platformKey).join(", ")}), but ${toolDir} ` +
          `has no ${PLATFORMS_FOLDER}/ folder: put each build in ${PLATFORMS_FOLDER}/<os>-<arch>[-<libc>]/code/.`,
        { toolId: spec.tool_id },
      );
    return [{ archive: "tool.zip", folder: "" }];
  }
  const keys = platforms.map(platformKey);
  const missing = keys.filter((key) => !folders.includes(key));
  const extra = folders.filter((folder) => !keys.includes(folder));
  if (missing.length > 0 || extra.length > 0 || keys.length === 0)
    throw new PackError(
      `${join(toolDir, PLATFORMS_FOLDER)} must hold one folder per platform spec.json's tool_platforms ` +
        `declares ` +
        `(${keys.join(", ") || "none declared"})${missing.length > 0 ? `; missing: ${missing.join(", ")}` : ""}` +
        `${extra.length > 0 ? `; not declared: ${extra.join(", ")}` : ""}.`,
      { toolId: spec.tool_id },
    );
  return platforms.map((platform, index) => ({
    archive: platformArchiveName(platform, index),
    folder: join(PLATFORMS_FOLDER, platformKey(platform)),
  }));
}

/** A build's `code/` as zip (Python) or tar.gz (binaries keep their executable bit); `code/` absent: the ready `tool.zip`. */
async function buildArchive(toolDir: string, spec: SpecFields, build: ToolBuild): Promise<Uint8Array> {
  const codeDir = join(toolDir, build.folder, "code");
  const codeFiles = await readCodeFolder(codeDir);
  if (codeFiles === undefined) {
    if (build.folder !== "")
      throw new PackError(`${codeDir} is missing: put the build for ${basename(build.folder)} there.`, { toolId: spec.tool_id });
    return readRequired(toolDir, "tool.zip", "the code archive; or create a code/ folder and let pack build it");
  }
  if (codeFiles.length === 0) throw new PackError(`${codeDir} is empty: put the tool's code there.`, { toolId: spec.tool_id });
  return isPythonRuntime(spec) ? zipCode(codeFiles) : tarGzipCode(codeFiles);
}

interface SpecFields {
  tool_id: string;
  tool_runtime_type?: string;
  tool_metadata?: { version?: unknown };
  tool_platforms?: unknown;
}

function parseSpec(bytes: Uint8Array, toolDir: string): SpecFields {
  let spec: unknown;
  try {
    spec = JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw new PackError(`${join(toolDir, "spec.json")} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  const fields = spec as Partial<SpecFields> | null;
  if (typeof fields !== "object" || fields === null || typeof fields.tool_id !== "string" || fields.tool_id === "") {
    throw new PackError(`${join(toolDir, "spec.json")} needs a non-empty string "tool_id".`);
  }
  return fields as SpecFields;
}

async function readRequired(dir: string, name: string, what: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(join(dir, name)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new PackError(`${join(dir, name)} is missing: it holds ${what}.`);
    throw error;
  }
}

interface CodeFile {
  /** Archive path, always starting with `code/`. */
  path: string;
  data: Uint8Array;
  mode: number;
}

/** Every regular file under `code/`, sorted; undefined when there is no `code/`. Links are refused (the registry would). */
async function readCodeFolder(codeDir: string): Promise<CodeFile[] | undefined> {
  const root = await lstat(codeDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (root === undefined) return undefined;
  if (!root.isDirectory()) throw new PackError(`${codeDir} must be a folder.`);
  const files: CodeFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      if (SKIPPED_NAMES.has(name)) continue;
      const path = join(dir, name);
      const stats = await lstat(path);
      if (stats.isDirectory()) await walk(path);
      else if (stats.isFile())
        files.push({
          path: `code/${relative(codeDir, path).split(sep).join("/")}`,
          data: new Uint8Array(await readFile(path)),
          mode: stats.mode & 0o777,
        });
      else
        throw new PackError(
          `${path} is not a regular file (a link or device); the registry ` +
            `accepts only files and folders in code/. Copy the target in instead.`,
        );
    }
  };
  await walk(codeDir);
  return files;
}

function zipCode(files: CodeFile[]): Uint8Array {
  const tree: Zippable = {};
  for (const file of files) tree[file.path] = [file.data, { mtime: ZIP_MTIME }];
  return zipSync(tree);
}

function tarGzipCode(files: CodeFile[]): Uint8Array {
  const entries: TarInputEntry[] = [
    { path: "code/", type: "directory" },
    ...files.map((file) => ({ path: file.path, data: file.data, mode: file.mode })),
  ];
  return gzipSync(writeTar(entries), { mtime: 0 });
}
