import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The file that holds a data folder's cursor secret (docs/registry.md#paging-cursors). */
export const CURSOR_KEY_FILE = "cursor-key";

/**
 * The data folder's page-cursor secret: made at random on the first start and kept (mode 0600)
 * in `<data dir>/cursor-key`, so cursors survive restarts and no other registry can mint them.
 * When it cannot be stored (a full disk), this run keeps a key of its own and says why in
 * `persisted`; its cursors then end with the process.
 */
export async function loadCursorKey(dataDir: string): Promise<{ key: string; persisted: boolean }> {
  const file = join(dataDir, CURSOR_KEY_FILE);
  const stored = await readKey(file);
  if (stored !== undefined) return { key: stored, persisted: true };
  const key = randomBytes(32).toString("base64url");
  try {
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return { key, persisted: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Another process of this folder wrote it first (the data-folder lock makes that a past run's leftover).
    if (code === "EEXIST") return { key: (await readKey(file)) ?? key, persisted: true };
    if (code === "ENOSPC" || code === "EDQUOT") return { key, persisted: false };
    throw error;
  }
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
