import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pathExists } from "./path-exists.js";
import { renameIntoPlace } from "./rename-into-place.js";

/**
 * The on-disk cache, shared safely by concurrent processes (every write is temp + rename):
 *
 *   archives/<sha256>             verified archive bytes
 *   trees/<sha256>/code/…         the archive unpacked (appears complete or not at all)
 *   entries/<tool>/<version>.json a published version's entry (immutable, so cached forever)
 *   venvs/<key>/                  virtual environments, one per interpreter + requirements
 */
export class ToolCache {
  constructor(readonly root: string) {}

  archivePath(sha256: string): string {
    return join(this.root, "archives", sha256);
  }

  treePath(sha256: string): string {
    return join(this.root, "trees", sha256);
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

  async readEntry<T>(toolId: string, version: string): Promise<T | undefined> {
    const bytes = await readIfPresent(this.entryPath(toolId, version));
    return bytes === undefined ? undefined : (JSON.parse(Buffer.from(bytes).toString("utf8")) as T);
  }

  writeEntry(toolId: string, version: string, entry: unknown): Promise<void> {
    return writeAtomically(this.entryPath(toolId, version), JSON.stringify(entry));
  }

  private entryPath(toolId: string, version: string): string {
    // Tool ids and versions are registry-validated, but never let one name a path outside the cache.
    return join(this.root, "entries", encodeURIComponent(toolId), `${encodeURIComponent(version)}.json`);
  }
}

async function readIfPresent(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const temp = `${path}.partial-${process.pid}-${randomUUID().slice(0, 8)}`;
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(temp, data, { flag: "wx" });
    await renameIntoPlace(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}
