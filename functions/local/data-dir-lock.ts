import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * One registry per data folder: the embedded database allows a single writer, and a second
 * server would otherwise fail later with an obscure "Database is closed". A stale lock (its
 * process is gone) is taken over.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true });
  const lockFile = join(dataDir, "registry.pid");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, `${process.pid}\n`, { flag: "wx" });
      return () => rm(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number((await readFile(lockFile, "utf8").catch(() => "")).trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new Error(
          `another registry (pid ${holder}) is using the data folder ${dataDir}; stop it, or start this one with another DATA_DIR / --data-dir (if no registry runs, delete ${lockFile})`,
        );
      }
      await rm(lockFile, { force: true });
    }
  }
  throw new Error(`could not lock the data folder ${dataDir} (${lockFile} keeps reappearing)`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
