import { join } from "node:path";
import { ArchiveIntegrityError, extractToolArchive, sha256Hex } from "../archive/extract-to-directory.js";
import type { ArchiveLimits } from "../archive/archive-limits.js";
import type { RegistryClient } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import type { ToolCache } from "./tool-cache.js";
import type { ToolTree } from "./tool-tree.js";

/**
 * The unpacked archive of a registry entry, from the cache when its `tool_archive_sha256` is known
 * there, else downloaded, verified against that hash before anything is unpacked, and cached.
 */
export async function registryToolTree(
  client: RegistryClient,
  cache: ToolCache,
  entry: ToolRecord,
  limits: Partial<ArchiveLimits> | undefined,
): Promise<ToolTree> {
  const expected = entry.tool_archive_sha256?.toLowerCase();
  if (expected !== undefined) {
    if (await cache.hasTree(expected)) return treeAt(cache, expected, false);
    const cached = await cache.readArchive(expected);
    if (cached !== undefined) {
      try {
        await unpackIntoCache(cache, cached, expected, entry.tool_id, limits);
        return treeAt(cache, expected, false);
      } catch (error) {
        if (!(error instanceof ArchiveIntegrityError)) throw error; // a damaged cached copy: fetch it again
      }
    }
  }
  const bytes = await client.downloadArchive(entry);
  const sha256 = await unpackIntoCache(cache, bytes, expected, entry.tool_id, limits);
  await cache.writeArchive(sha256, bytes);
  return treeAt(cache, sha256, true);
}

/**
 * Unpacks bytes into the cache's tree named by their hash and returns that hash. A tree already
 * there is the same content by construction, so it is reused; a hash that differs from `expected`
 * fails before anything is read or written.
 */
export async function unpackIntoCache(
  cache: ToolCache,
  bytes: Uint8Array,
  expected: string | undefined,
  toolId: string,
  limits: Partial<ArchiveLimits> | undefined,
): Promise<string> {
  const sha256 = sha256Hex(bytes);
  if (expected !== undefined && expected !== sha256) throw new ArchiveIntegrityError(toolId, expected, sha256);
  if (!(await cache.hasTree(sha256))) {
    await extractToolArchive(bytes, { targetDir: cache.treePath(sha256), expectedSha256: sha256, toolId, ...(limits ? { limits } : {}) });
  }
  return sha256;
}

export function treeAt(cache: ToolCache, sha256: string, downloaded: boolean): ToolTree {
  const toolDir = cache.treePath(sha256);
  return { toolDir, codeDir: join(toolDir, "code"), archiveSha256: sha256, downloaded };
}
