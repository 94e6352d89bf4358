import { createHash } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { privateTempFolder } from "../private-temp-folder.js";
import { type SeccompOptions, seccompProgram } from "./seccomp-program.js";

/** Program bytes' digest → the file holding them, so each program is checked once per process. */
const writtenFiles = new Map<string, string>();

/**
 * The path of a file holding `seccompProgram(options)`, for a launch that opens it on a
 * descriptor (`exec 9< path`, then `bwrap --seccomp 9`). Named by the program's sha256 in this
 * user's private temp folder (`privateTempFolder`), so processes and versions share a file only
 * when its bytes are the same; written once per process and reused after.
 *
 * ```ts
 * const path = seccompProgramFile({ allowUnixSockets: profile.network.kind === "proxy" });
 * // sh -c 'exec 9< "$0" && exec bwrap --seccomp 9 ...' path
 * ```
 */
export function seccompProgramFile(options: SeccompOptions = {}): string {
  const program = seccompProgram(options);
  const digest = createHash("sha256").update(program).digest("hex");
  const known = writtenFiles.get(digest);
  if (known !== undefined) return known;
  const path = join(privateTempFolder(), `seccomp-${digest.slice(0, 32)}.bpf`);
  if (!holds(path, program)) {
    // Written beside its final name and renamed, so a concurrent reader never sees part of it.
    const partial = `${path}.${process.pid}.partial`;
    try {
      writeFileSync(partial, program, { flag: "wx", mode: 0o400 });
      renameSync(partial, path);
    } finally {
      rmSync(partial, { force: true });
    }
  }
  writtenFiles.set(digest, path);
  return path;
}

/** Whether `path` is a regular file (not followed through a link) holding exactly `bytes`. */
function holds(path: string, bytes: Buffer): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    return fstatSync(fd).isFile() && readFileSync(fd).equals(bytes);
  } finally {
    closeSync(fd);
  }
}
