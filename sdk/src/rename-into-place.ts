import { mkdir, rename } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Publishes a finished temp folder or file under its final name in one atomic step. When another
 * process published the same name first, theirs wins and `false` comes back (the caller deletes
 * its own copy): cache entries are content-addressed, so both copies are equal.
 */
export async function renameIntoPlace(from: string, to: string): Promise<boolean> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST") return false;
    throw error;
  }
}
