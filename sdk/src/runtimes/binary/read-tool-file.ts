import { constants, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

/**
 * Never follow a link the tool planted (ELOOP), never wait on a FIFO with no writer; libuv adds
 * O_CLOEXEC to every open, so the descriptor never leaks into a process started meanwhile.
 * O_NOFOLLOW and O_NONBLOCK are undefined on Windows, where only unsandboxed tools run.
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CHUNK_BYTES = 64 * 1024;
/** setTimeout's largest delay; a deadline further away than this is as good as none. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Why a file a tool left was not read: what it was instead of a regular file of bounded size. */
export class ToolFileRefused extends Error {
  constructor(
    readonly problem: "missing" | "not-regular" | "too-big" | "deadline",
    /** For people: "a symbolic link", "a FIFO (named pipe)", "12345678 bytes", … */
    readonly found: string,
  ) {
    super(`${problem}: ${found}`);
  }
}

export interface ReadToolFileOptions {
  /** At most this many bytes are read. */
  maxBytes: number;
  /** `head`: a larger file is refused (`too-big`); `tail`: its last `maxBytes` are read (stderr). */
  keep: "head" | "tail";
  /** `performance.now()` time by which the read must be done; Infinity for none. */
  deadline: number;
}

/**
 * Reads a file a tool wrote, as the binary contract wants it: a regular file, opened without
 * following a link at its name, bounded in size and time (docs/sandbox.md#tool-output). Pass a
 * path anchored in a held folder descriptor (`/proc/self/fd/<n>/<name>`, see `CallFolder.at`).
 * Throws `ToolFileRefused` saying what was there instead.
 */
export async function readToolFile(path: string, options: ReadToolFileOptions): Promise<Buffer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const wait = options.deadline - performance.now();
    if (wait > MAX_TIMER_MS) return;
    timer = setTimeout(() => reject(new ToolFileRefused("deadline", "the call's time ran out while reading it")), Math.max(0, wait));
  });
  try {
    return await Promise.race([readBounded(path, options), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function readBounded(path: string, { maxBytes, keep }: ReadToolFileOptions): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(path, OPEN_FLAGS);
  } catch (error) {
    throw refusalOf(error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new ToolFileRefused("not-regular", kindOf(stats));
    if (keep === "head" && stats.size > maxBytes) throw new ToolFileRefused("too-big", `${stats.size} bytes`);
    const start = keep === "tail" ? Math.max(0, stats.size - maxBytes) : 0;
    // One byte more than allowed shows a file that grew after fstat (a writer still running).
    const buffer = Buffer.alloc(Math.min(stats.size - start, maxBytes) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, Math.min(CHUNK_BYTES, buffer.length - filled), start + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes) {
      if (keep === "head") throw new ToolFileRefused("too-big", `more than ${maxBytes} bytes`);
      return buffer.subarray(filled - maxBytes, filled);
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

function refusalOf(error: unknown): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case "ENOENT":
      return new ToolFileRefused("missing", "no file");
    case "ELOOP":
      return new ToolFileRefused("not-regular", "a symbolic link");
    case "ENXIO": // open(2) of a unix socket
      return new ToolFileRefused("not-regular", "a socket");
    default:
      return error;
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "not a regular file";
}
