// Whole-file reads and writes that concurrent processes can share: the cache and the trust pins
// both keep their files this way, so it sits at the root, beside renameIntoPlace.
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { renameIntoPlace } from "./rename-into-place.js";

/** The file's bytes, or undefined when it does not exist (other errors are thrown). */
export async function readIfPresent(path: string): Promise<Uint8Array | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes a temp file beside `path`, then renames it into place: readers see the old file or the new one, never part of one. */
export async function writeAtomically(path: string, data: Uint8Array | string): Promise<void> {
  const temp = `${path}.partial-${process.pid}-${randomUUID().slice(0, 8)}`;
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(temp, data, { flag: "wx" });
    await renameIntoPlace(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}
