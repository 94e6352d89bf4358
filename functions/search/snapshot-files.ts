import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Where a search process keeps the snapshot files it opens (docs/search.md, "Cold start"): one
 * file per snapshot under the system's temporary folder (`/tmp` on Lambda), named for the
 * process, removed when its index closes. The first call also removes the files of processes
 * that are gone (a killed server, a recycled Lambda sandbox leaves them behind).
 */
const DIRECTORY = join(tmpdir(), "agent-tools-search");
const NAME = /^(\d+)-\d+\.sqlite$/;

let made = 0;

/** A new file path for a snapshot of this process. */
export function snapshotFile(): string {
  if (made === 0) {
    mkdirSync(DIRECTORY, { recursive: true });
    for (const name of readdirSync(DIRECTORY)) {
      const pid = Number(NAME.exec(name)?.[1]);
      if (Number.isSafeInteger(pid) && pid !== process.pid && !running(pid)) rmSync(join(DIRECTORY, name), { force: true });
    }
  }
  return join(DIRECTORY, `${process.pid}-${++made}.sqlite`);
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
