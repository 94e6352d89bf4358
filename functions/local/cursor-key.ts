import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The file that holds a data folder's cursor secret (docs/registry.md#paging-cursors). */
export const CURSOR_KEY_FILE = "cursor-key";

/**
 * The data folder's page-cursor secret: made at random on the first start and kept (mode 0600)
 * in `<data dir>/cursor-key`, so cursors survive restarts and no other registry can mint them.
 */
export async function loadCursorKey(dataDir: string): Promise<string> {
  const file = join(dataDir, CURSOR_KEY_FILE);
  const stored = await readKey(file);
  if (stored !== undefined) return stored;
  const key = randomBytes(32).toString("base64url");
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  return key;
}

async function readKey(file: string): Promise<string | undefined> {
  try {
    const text = (await readFile(file, "utf8")).trim();
    return text === "" ? undefined : text;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
