import { readFile, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { ArchiveLimits } from "../archive/archive-limits.js";
import { AgentToolsError } from "../errors.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { pathExists } from "./path-exists.js";
import { treeAt, unpackIntoCache } from "./registry-tool-tree.js";
import { findBeneath, readFileBeneath } from "../tool-files.js";
import type { ToolCache } from "./tool-cache.js";
import type { ToolTree } from "./tool-tree.js";
import { platformForHost } from "./platform-archive.js";
import { PLATFORMS_FOLDER, platformKey, type ToolPlatform } from "../tool-spec/tool-platforms.js";

/** A spec.json is a few kilobytes; the registry refuses far smaller ones than this. */
const MAX_SPEC_BYTES = 4 * 1024 * 1024;

/** "Test it locally" (docs/authoring.md): a tool folder (with `code/`), its `code/` folder, or a `tool.zip`. */
export interface LocalToolSource {
  path: string;
  /** Defaults to spec.json's `tool_id`, else the tool folder's name. */
  toolId?: string;
}

export interface LocalTool {
  record: ToolRecord;
  tree: ToolTree;
}

/**
 * Reads a local tool without a registry. A folder runs in place (edit, add again, call); a
 * `tool.zip` (zip or tar.gz) is unpacked into the cache like a downloaded archive. The record is
 * the `spec.json` found in the tool folder (or beside the archive), else a minimal one whose
 * runtime is Python when `code/function.py` exists and binary otherwise.
 */
export async function readLocalTool(
  source: LocalToolSource,
  cache: ToolCache,
  limits: Partial<ArchiveLimits> | undefined,
): Promise<LocalTool> {
  const path = resolve(source.path);
  const info = await stat(path).catch((error: unknown) => {
    throw new AgentToolsError(
      "LOCAL_TOOL_NOT_FOUND",
      `Local tool path ${path} cannot be read: ${(error as Error).message}. ` +
        `Pass a tool folder (holding code/), its code/ folder, or a tool.zip.`,
      { cause: error },
    );
  });
  let tree: ToolTree;
  let specDir: string;
  if (info.isFile()) {
    const sha256 = await unpackIntoCache(cache, await readFile(path), undefined, source.toolId ?? basename(dirname(path)), limits);
    tree = treeAt(cache, sha256, false);
    specDir = dirname(path);
  } else if (await pathExists(join(path, "code"))) {
    tree = { toolDir: path, codeDir: join(path, "code"), archiveSha256: undefined, downloaded: false };
    specDir = path;
  } else if (await pathExists(join(path, PLATFORMS_FOLDER))) {
    // A binary tool built for several platforms (docs/authoring.md#platforms): the build for this host runs in place.
    const declared = readSpec(path)?.tool_platforms;
    const toolId = source.toolId ?? basename(path);
    if (!Array.isArray(declared))
      throw new AgentToolsError(
        "LOCAL_SPEC_INVALID",
        `${join(path, "spec.json")} declares no tool_platforms, but ` +
          `${join(path, PLATFORMS_FOLDER)}/ holds builds per platform; list them in tool_platforms.`,
      );
    const toolDir = join(path, PLATFORMS_FOLDER, platformKey(platformForHost(toolId, declared as ToolPlatform[])));
    tree = { toolDir, codeDir: join(toolDir, "code"), archiveSha256: undefined, downloaded: false };
    specDir = path;
  } else {
    // The Python SDK accepted only the code/ folder itself (docs/design/compatibility.md#local-code-folder).
    tree = { toolDir: dirname(path), codeDir: path, archiveSha256: undefined, downloaded: false };
    specDir = dirname(path);
  }
  const spec = readSpec(specDir);
  const toolId = source.toolId ?? (typeof spec?.tool_id === "string" ? spec.tool_id : basename(specDir));
  const runtimeType = spec?.tool_runtime_type ?? (findBeneath(tree.codeDir, "function.py") !== undefined ? "python" : "binary");
  const record: ToolRecord = {
    ...spec,
    tool_id: toolId,
    tool_runtime_type: runtimeType,
    tool_parameters: spec?.tool_parameters ?? {},
  };
  return { record, tree };
}

function readSpec(specDir: string): Partial<ToolRecord> | undefined {
  const path = join(specDir, "spec.json");
  const bytes = readFileBeneath(specDir, "spec.json", MAX_SPEC_BYTES);
  if (bytes === undefined) return undefined;
  try {
    return JSON.parse(bytes.toString("utf8")) as Partial<ToolRecord>;
  } catch (error) {
    throw new AgentToolsError("LOCAL_SPEC_INVALID", `${path} is not valid JSON (${(error as Error).message}); fix it or remove it.`, {
      cause: error,
    });
  }
}
