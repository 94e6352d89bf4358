import { randomUUID } from "node:crypto";
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCleanup } from "../../sandbox/exit-cleanup.js";

/** What a call folder holds: the request the launcher passes on, and what the tool leaves. */
export const CALL_FILES = { request: "request.json", output: "output.json", stdout: "stdout", stderr: "stderr" } as const;

const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);
/** Where `/proc/self/fd` exists (Linux), paths go through the held descriptor; elsewhere only unsandboxed tools run. */
const ANCHORED = existsSync("/proc/self/fd");
/** Folders a tool nests deeper than this are left to the temp folder's own cleaning. */
const MAX_DEPTH = 64;

/**
 * `name` inside the folder `fd` holds open: `/proc/self/fd/<fd>/<name>`. The kernel resolves the
 * magic link to that very folder, wherever it was moved and whatever now sits at its path, so a
 * tool that renames or replaces the folder cannot redirect the agent (Node has no `openat`).
 */
function anchored(fd: number, fallbackPath: string, name: string): string {
  return ANCHORED ? `/proc/self/fd/${fd}/${name}` : join(fallbackPath, name);
}

/** Outboxes a process leaves without `close()` are removed as it exits. */
const outboxes = new ExitCleanup<Outbox>((outbox) => outbox.remove());

/**
 * The private folder (0700, in the temp folder) holding one binary runtime's call folders. A warm
 * sandbox gets it writable, so the tool can rename what is in it: the agent trusts only the
 * descriptors it holds (docs/sandbox.md#tool-output).
 */
export class Outbox {
  private constructor(readonly path: string) {}

  static async create(): Promise<Outbox> {
    const outbox = new Outbox(await mkdtemp(join(tmpdir(), "agent-tools-binary-")));
    outboxes.add(outbox);
    return outbox;
  }

  /** A new call folder with the request written in it (created exclusively: a planted link fails). */
  open(request: string): CallFolder {
    const id = randomUUID();
    const path = join(this.path, id);
    mkdirSync(path, { mode: 0o700 });
    const fd = openSync(path, DIR_FLAGS);
    const folder = new CallFolder(id, path, fd);
    try {
      writeFileSync(folder.at(CALL_FILES.request), request, { flag: "wx", mode: 0o600 });
    } catch (error) {
      folder.remove();
      throw error;
    }
    return folder;
  }

  /** Removes the outbox and what any tool left in it, following no link. */
  remove(): void {
    outboxes.delete(this);
    removeFolder(this.path);
  }
}

/** One call's folder, held open by the agent from its creation to its removal. */
export class CallFolder {
  constructor(
    readonly id: string,
    /** Where the tool sees it (the same path inside the sandbox). */
    readonly path: string,
    private readonly fd: number,
  ) {}

  /** The path the tool is given for one of its files. */
  pathOf(name: string): string {
    return join(this.path, name);
  }

  /** The path the agent reads or writes one of its files by, through the held descriptor. */
  at(name: string): string {
    return anchored(this.fd, this.path, name);
  }

  /** Empties the folder through its descriptor, then removes it if it is still where it was made. */
  remove(): void {
    emptyFolder(this.fd, this.path, 0);
    closeSync(this.fd);
    try {
      rmdirSync(this.path);
    } catch {
      // renamed or refilled by a process still running: removed with the outbox
    }
  }
}

function removeFolder(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, DIR_FLAGS);
  } catch {
    return;
  }
  emptyFolder(fd, path, 0);
  closeSync(fd);
  try {
    rmdirSync(path);
  } catch {
    // refilled meanwhile; left to the temp folder's cleaning
  }
}

/**
 * Removes every entry of the folder `fd` holds: unlinking an entry never follows it, and a
 * sub-folder is opened (O_NOFOLLOW) and emptied through its own descriptor before it goes, so a
 * link swapped in mid-way is removed as a link, never walked into (the classic `rm -rf` race).
 */
function emptyFolder(fd: number, path: string, depth: number): void {
  let names: string[];
  try {
    names = readdirSync(anchored(fd, path, ""));
  } catch {
    return;
  }
  for (const name of names) {
    const entry = anchored(fd, path, name);
    try {
      unlinkSync(entry);
      continue;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== "EISDIR" && code !== "EPERM") || depth >= MAX_DEPTH) continue;
    }
    let sub: number;
    try {
      sub = openSync(entry, DIR_FLAGS);
    } catch {
      continue;
    }
    emptyFolder(sub, join(path, name), depth + 1);
    closeSync(sub);
    try {
      rmdirSync(entry);
    } catch {
      // refilled meanwhile
    }
  }
}
