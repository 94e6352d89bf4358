import { readFileSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";

export interface DataDirLock {
  release(): Promise<void>;
  /** The last holder died without releasing the lock (killed, crashed, power lost): files it was writing may be cut short. */
  afterUncleanStop: boolean;
}

/**
 * One registry per data folder: the embedded database allows a single writer, and a second
 * server would otherwise fail later with an obscure "Database is closed". The lock file names
 * the holder's pid and, on Linux, its start time, so a lock is taken over when its process is
 * gone, is a zombie (killed, with no parent left to reap it: common in containers without an
 * init), or the pid now belongs to another process.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const lockFile = join(dataDir, "registry.pid");
  let tookOver = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await writeFile(lockFile, `${process.pid} ${startTime(process.pid) ?? ""}\n`, { flag: "wx" });
      return { release: () => rm(lockFile, { force: true }), afterUncleanStop: tookOver };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const [pidText, started] = (await readFile(lockFile, "utf8").catch(() => "")).trim().split(/\s+/);
      const holder = Number(pidText);
      if (Number.isInteger(holder) && holder > 0 && holdsLock(holder, started)) {
        throw new Error(
          `another registry (pid ${holder}) is using the data folder ${dataDir}; stop it, or start ` +
            `this one with another DATA_DIR / --data-dir (if no registry runs, delete ${lockFile})`,
        );
      }
      await rm(lockFile, { force: true });
      tookOver = true;
    }
  }
  throw new Error(`could not lock the data folder ${dataDir} (${lockFile} keeps reappearing)`);
}

/** Whether process `pid` is alive, not a zombie, and (when recorded) the same process that wrote the lock. */
export function holdsLock(pid: number, recordedStart: string | undefined): boolean {
  const stat = procStat(pid);
  if (stat !== undefined) {
    if (stat.state === "Z" || stat.state === "X" || stat.state === "x") return false;
    return recordedStart === undefined || recordedStart === "" || recordedStart === stat.startTime;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function startTime(pid: number): string | undefined {
  return procStat(pid)?.startTime;
}

/** Fields of `/proc/<pid>/stat` (Linux); undefined elsewhere or when the process is gone. */
function procStat(pid: number): { state: string; startTime: string } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: fields restart after the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const started = fields[19];
  return state === undefined || started === undefined ? undefined : { state, startTime: started };
}
