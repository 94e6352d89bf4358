import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { PARTIAL_FILE } from "./s3rver-disk-errors.js";

const METADATA_SUFFIX = "._S3rver_metadata.json";
const MD5_SUFFIX = "._S3rver_object.md5";
const MD5_HEX = /^[0-9a-f]{32}$/;

/**
 * s3rver keeps each object as three files: the bytes, `metadata.json` and an `.md5`. A kill while
 * it writes the last two leaves one empty or cut short, and s3rver then fails every HEAD, GET and
 * conditional write of that key with a 500, for good: the archive could never be read nor
 * repaired through S3. Both files are optional to s3rver (it recomputes the md5 and defaults the
 * metadata), so a damaged one is removed; whether the bytes themselves are whole is the archive
 * store's check (docs/durability.md, "Archives"). The temporary files of writes a kill cut short
 * (`s3rver-disk-errors.ts`) go too. Run after an unclean stop, before s3rver starts. Returns the
 * paths removed.
 */
export async function repairEmulatorFiles(s3Dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(s3Dir, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (PARTIAL_FILE.test(name)) {
      await rm(join(s3Dir, name), { force: true });
      removed.push(join(s3Dir, name));
      continue;
    }
    const isMetadata = name.endsWith(METADATA_SUFFIX);
    if (!isMetadata && !name.endsWith(MD5_SUFFIX)) continue;
    const path = join(s3Dir, name);
    const text = await readFile(path, "utf8");
    if (isMetadata ? isJson(text) : MD5_HEX.test(text)) continue;
    await rm(path, { force: true });
    removed.push(path);
  }
  return removed;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
