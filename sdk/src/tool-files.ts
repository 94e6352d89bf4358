// The one way the SDK reads a tool's own files on the host (requirements.txt, spec.json,
// function.py, SKILL.md, the binary's name): at the root, beside atomic-file.ts, because the cache,
// the runtimes and the skills all read through it.
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from "node:fs";
import { join, sep } from "node:path";
import { AgentToolsError } from "./errors.js";

/** A file the SDK reads in a tool's folder leads outside it, or is not a regular file, or is too large. Nothing was read. */
export class ToolFileError extends AgentToolsError<"TOOL_FILE_UNSAFE"> {
  constructor(path: string, problem: string, toolId: string | undefined) {
    super(
      "TOOL_FILE_UNSAFE",
      `${toolId === undefined ? "" : `Tool "${toolId}": `}the SDK did not read ${path}: ${problem}. ` +
        `A tool's files must be regular files inside its folder; links may only point inside it.`,
      toolId === undefined ? {} : { toolId },
    );
  }
}

export interface BeneathOptions {
  /** Named in errors. */
  toolId?: string | undefined;
}

/** A file or folder found beneath a root: its real path and kind, links resolved. */
export interface FoundBeneath {
  realPath: string;
  kind: "file" | "directory" | "other";
  size: number;
}

/**
 * What `relative` is beneath `root`, resolved with every link followed (`realpath`), or undefined
 * when it does not exist (a dangling link included). Throws `ToolFileError` when it resolves
 * outside `root`: a link planted in the tree, or a tree changed after it was unpacked, never leads
 * a host read elsewhere. `relative` is a name the SDK chose (`requirements.txt`), never the tool's.
 */
export function findBeneath(root: string, relative: string, options: BeneathOptions = {}): FoundBeneath | undefined {
  const path = join(root, relative);
  const realRoot = existingRealPath(root, path, options);
  const realPath = realRoot === undefined ? undefined : existingRealPath(path, path, options);
  if (realRoot === undefined || realPath === undefined) return undefined;
  if (realPath !== realRoot && !realPath.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep))
    throw new ToolFileError(path, `it leads to ${realPath}, outside ${root}`, options.toolId);
  const info = lstatSync(realPath);
  return { realPath, kind: info.isFile() ? "file" : info.isDirectory() ? "directory" : "other", size: info.size };
}

/**
 * The bytes of the regular file `relative` beneath `root` (undefined when it does not exist), read
 * through a descriptor opened on the checked real path with `O_NOFOLLOW` (a link swapped in after
 * the check fails to open) and `O_NONBLOCK` (a FIFO cannot hang the agent), then confirmed to be
 * that path (Linux: `/proc/self/fd`, so a folder swapped for a link on the way is caught), a
 * regular file and at most `maxBytes` long.
 */
export function readFileBeneath(root: string, relative: string, maxBytes: number, options: BeneathOptions = {}): Buffer | undefined {
  return readBeneath(root, relative, maxBytes, "whole", options);
}

/** The first `bytes` bytes of the regular file `relative` beneath `root` (all of a shorter one), read as safely as `readFileBeneath`. */
export function readFileHeadBeneath(root: string, relative: string, bytes: number, options: BeneathOptions = {}): Buffer | undefined {
  return readBeneath(root, relative, bytes, "head", options);
}

function readBeneath(
  root: string,
  relative: string,
  maxBytes: number,
  keep: "whole" | "head",
  options: BeneathOptions,
): Buffer | undefined {
  const found = findBeneath(root, relative, options);
  if (found === undefined) return undefined;
  const path = join(root, relative);
  let fd: number;
  try {
    fd = openSync(found.realPath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new ToolFileError(path, `it changed while being opened (${(error as NodeJS.ErrnoException).code})`, options.toolId);
  }
  try {
    const opened = PROC_FDS ? realpathSync(`/proc/self/fd/${fd}`) : found.realPath;
    if (opened !== found.realPath) throw new ToolFileError(path, `it changed while being opened (it led to ${opened})`, options.toolId);
    const info = fstatSync(fd);
    if (!info.isFile()) throw new ToolFileError(path, `it is ${kindOf(info)}, not a regular file`, options.toolId);
    if (keep === "head") {
      const head = Buffer.alloc(maxBytes);
      return head.subarray(0, readSync(fd, head, 0, maxBytes, 0));
    }
    if (info.size > maxBytes)
      throw new ToolFileError(path, `it is ${info.size} bytes, more than the ${maxBytes} read here`, options.toolId);
    return readAtMost(fd, maxBytes, () => new ToolFileError(path, `it grew past ${maxBytes} bytes while being read`, options.toolId));
  } finally {
    closeSync(fd);
  }
}

/**
 * The real path, or undefined when nothing is there (a dangling link, a missing folder on the
 * way); a path that cannot be resolved at all (a link loop, a folder the agent may not search) is
 * refused as `wanted`, since where it leads cannot be checked.
 */
function existingRealPath(path: string, wanted: string, options: BeneathOptions): string | undefined {
  try {
    return realpathSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new ToolFileError(wanted, `where it leads cannot be resolved (${code})`, options.toolId);
  }
}

const PROC_FDS = process.platform === "linux" && existsSync("/proc/self/fd");

function readAtMost(fd: number, maxBytes: number, tooLarge: () => Error): Buffer {
  const buffer = Buffer.alloc(maxBytes + 1);
  let length = 0;
  for (;;) {
    const read = readSync(fd, buffer, length, buffer.length - length, null);
    if (read === 0) return buffer.subarray(0, length);
    length += read;
    if (length > maxBytes) throw tooLarge();
  }
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return "a folder";
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  return "not a regular file";
}
