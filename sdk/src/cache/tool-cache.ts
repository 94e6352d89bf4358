import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { EntryWithTag } from "../registry-client/registry-client.js";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { pathExists } from "./path-exists.js";
import { readIfPresent, writeAtomically } from "../atomic-file.js";

/**
 * The on-disk cache, shared safely by concurrent processes (every write is temp + rename):
 *
 *   archives/<sha256>             verified archive bytes
 *   trees/<sha256>/code/…         the archive unpacked (appears complete or not at all)
 *   entries/<tool>/<version>.json a version's entry and ETag as last fetched (revalidated, see registry-entry.ts)
 *   venvs/<key>/                  virtual environments, one per interpreter + requirements
 *   state/<tool>/, proxies/       sandboxed tools' state folders and proxy sockets (sandbox/tool-sandboxes.ts)
 */
/** What the cache keeps per version: the entry and the validator to revalidate it with. */
export type CachedEntry = EntryWithTag;

/** A digest names a folder of the cache: anything but 64 hex digits (`../../x`) never reaches `join`. */
function hexDigest(sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new TypeError(`Not a lower-case hex sha256: ${JSON.stringify(sha256.slice(0, 80))}.`);
  return sha256;
}

export class ToolCache {
  constructor(readonly root: string) {}

  archivePath(sha256: string): string {
    return join(this.root, "archives", hexDigest(sha256));
  }

  treePath(sha256: string): string {
    return join(this.root, "trees", hexDigest(sha256));
  }

  venvPath(key: string): string {
    return join(this.root, "venvs", key);
  }

  async hasTree(sha256: string): Promise<boolean> {
    return pathExists(this.treePath(sha256));
  }

  readArchive(sha256: string): Promise<Uint8Array | undefined> {
    return readIfPresent(this.archivePath(sha256));
  }

  writeArchive(sha256: string, bytes: Uint8Array): Promise<void> {
    return writeAtomically(this.archivePath(sha256), bytes);
  }

  /** A version's entry as last fetched, with the registry's ETag for it (none in caches written before ETags). */
  async readEntry(toolId: string, version: string): Promise<CachedEntry | undefined> {
    const bytes = await readIfPresent(this.entryPath(toolId, version));
    if (bytes === undefined) return undefined;
    const stored = JSON.parse(Buffer.from(bytes).toString("utf8")) as Partial<CachedEntry> & ToolRecord;
    return stored.entry !== undefined ? { entry: stored.entry, etag: stored.etag } : { entry: stored, etag: undefined };
  }

  writeEntry(toolId: string, version: string, cached: CachedEntry): Promise<void> {
    return writeAtomically(this.entryPath(toolId, version), JSON.stringify(cached));
  }

  /** The versions of a tool whose entries are cached, in no particular order. */
  async cachedVersions(toolId: string): Promise<string[]> {
    try {
      const names = await readdir(this.entryDir(toolId));
      return names.filter((name) => name.endsWith(".json")).map((name) => decodeURIComponent(name.slice(0, -".json".length)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
  }

  private entryDir(toolId: string): string {
    // Tool ids and versions are registry-validated, but never let one name a path outside the cache.
    return join(this.root, "entries", encodeURIComponent(toolId));
  }

  private entryPath(toolId: string, version: string): string {
    return join(this.entryDir(toolId), `${encodeURIComponent(version)}.json`);
  }
}
