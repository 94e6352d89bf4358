import { gzipSync, zipSync, type Zippable } from "fflate";
import { lstat, readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { detectArchiveFormat, writeTar, type TarInputEntry } from "../archive/index.js";
import { isPythonRuntime } from "../registry-client/tool-record.js";
import { MISSING_VERSION_WARNING } from "../tool-spec/index.js";
import { PackError } from "./publish-errors.js";

export interface PackedTool {
  toolId: string;
  /** `tool_metadata.version`, or `0.0.0` as the registry assumes when there is none. */
  version: string;
  /** Built: `zip` for Python tools, `tar.gz` for binaries (zip tools commonly drop the exec bit); or what a ready `tool.zip` holds. */
  archiveFormat: "zip" | "tar.gz";
  /** The upload bundle: `spec.json`, `tool.zip`, `tool.md` at the root. */
  bundle: Uint8Array;
  /** What will publish but is probably a mistake (no version). */
  warnings: string[];
}

/** Fixed timestamps make packing reproducible: the same folder always gives the same archive hash. */
const ZIP_MTIME = new Date("1980-01-02T00:00:00Z");
const SKIPPED_NAMES = new Set(["__pycache__", ".DS_Store"]);

/**
 * Builds the upload bundle from a tool folder laid out as docs/authoring.md describes (docs/design/compatibility.md#layout):
 * `spec.json`, `tool.md` and `code/` (or a ready `tool.zip` when there is no `code/`).
 */
export async function packTool(toolDir: string): Promise<PackedTool> {
  const specBytes = await readRequired(toolDir, "spec.json", "the registry entry (tool_id, tool_runtime_type, tool_api_spec, …)");
  const spec = parseSpec(specBytes, toolDir);
  const manPage = await readRequired(toolDir, "tool.md", "the Markdown documentation stored as tool_man_page_doc");
  const python = isPythonRuntime(spec);
  const codeFiles = await readCodeFolder(join(toolDir, "code"));

  let archive: Uint8Array;
  if (codeFiles !== undefined) {
    if (codeFiles.length === 0)
      throw new PackError(`${join(toolDir, "code")} is empty: put the tool's code there.`, { toolId: spec.tool_id });
    archive = python ? zipCode(codeFiles) : tarGzipCode(codeFiles);
  } else {
    archive = await readRequired(toolDir, "tool.zip", "the code archive; or create a code/ folder and let pack build it");
  }
  const archiveFormat = detectArchiveFormat(archive);
  if (archiveFormat !== "zip" && archiveFormat !== "tar.gz") {
    throw new PackError(
      `${join(toolDir, "tool.zip")} is neither a zip nor a tar.gz: rebuild it with \`zip -r tool.zip code\` (or \`tar czf tool.zip code\` for a binary).`,
      { toolId: spec.tool_id },
    );
  }
  const bundle = zipSync({
    "spec.json": [specBytes, { mtime: ZIP_MTIME }],
    "tool.zip": [archive, { mtime: ZIP_MTIME, level: 0 }],
    "tool.md": [manPage, { mtime: ZIP_MTIME }],
  });
  const declared = typeof spec.tool_metadata?.version === "string" && spec.tool_metadata.version !== "";
  const version = declared ? (spec.tool_metadata!.version as string) : "0.0.0";
  return { toolId: spec.tool_id, version, archiveFormat, bundle, warnings: declared ? [] : [MISSING_VERSION_WARNING] };
}

interface SpecFields {
  tool_id: string;
  tool_runtime_type?: string;
  tool_metadata?: { version?: unknown };
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
          `${path} is not a regular file (a link or device); the registry accepts only files and folders in code/. Copy the target in instead.`,
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
