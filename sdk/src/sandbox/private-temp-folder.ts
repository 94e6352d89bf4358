import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SeccompFilterError } from "./seccomp/seccomp-filter-error.js";

/**
 * `<tmpdir>/agent-tools-<uid>/`, a folder only this user can enter, created on first use. The temp
 * folder is shared with every user, so one that already exists is used only when it is a real
 * folder (not a link), owned by this user, mode 0700: anything else could be another user's,
 * who could then replace what the sandbox loads from it.
 */
export function privateTempFolder(): string {
  const uid = process.getuid?.() ?? 0;
  const folder = join(tmpdir(), `agent-tools-${uid}`);
  try {
    mkdirSync(folder, { mode: 0o700 });
    // The umask may have taken bits away, never added any; set exactly 0700.
    chmodSync(folder, 0o700);
    return folder;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new SeccompFilterError(
        `${folder} cannot be created (${(error as Error).message})`,
        "set TMPDIR to a folder that exists and this user can write",
      );
    }
  }
  const info = lstatSync(folder);
  const problem = info.isSymbolicLink()
    ? "is a symbolic link"
    : !info.isDirectory()
      ? "is not a folder"
      : info.uid !== uid
        ? `belongs to uid ${info.uid}, not to this user (uid ${uid})`
        : (info.mode & 0o777) !== 0o700
          ? `has mode ${(info.mode & 0o777).toString(8).padStart(4, "0")}, not 0700`
          : undefined;
  if (problem === undefined) return folder;
  throw new SeccompFilterError(
    `${folder} ${problem}, so what the sandbox loads from it could be replaced by another user`,
    `remove ${folder} (or make it this user's, mode 0700), or set TMPDIR to a folder only this user can write`,
  );
}
