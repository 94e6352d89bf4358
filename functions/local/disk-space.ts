import { randomFillSync, randomUUID } from "node:crypto";
import { readdir, rename, rm, stat, statfs, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { storageFull } from "../http/storage-answers.js";
import type { StorageSpace } from "../storage/storage-space.js";
import { isDiskFull } from "../storage/storage-errors.js";
import type { DiskFullSignal } from "./disk-full-signal.js";

/** The data folder's space reserve (docs/durability.md, "Out of space"). */
export const SPACE_RESERVE_FILE = "space-reserve";
/**
 * What the reserve holds back: enough for LevelDB to open on a full disk (it replays its log,
 * at most its 4 MiB write buffer, into a new table), with the lock and key files beside it.
 */
export const SPACE_RESERVE_BYTES = 8 * 1024 * 1024;
/**
 * Free space every write leaves: a LevelDB memtable flush writes up to its 4 MiB write buffer as a
 * new table in the background, and a flush that fails for want of space fails every later write
 * (until LevelDB is reopened, below); with the S3 emulator's side files beside it.
 */
export const WRITE_HEADROOM_BYTES = 8 * 1024 * 1024;

/**
 * Room for writes on the local server's disk (`npm start`). Writes are admitted only while they
 * fit with WRITE_HEADROOM_BYTES to spare (a statfs that started after the write asked, so nothing half-written is
 * left by a disk that fills up midway), and SPACE_RESERVE_BYTES are kept in `<data dir>/space-reserve`
 * so that a start on a full disk can still open the database: it releases the reserve and starts
 * read-only. Once space is back the reserve is written again and writes are admitted, without a
 * restart; if a table write had failed for want of space, LevelDB is reopened first, as it may
 * keep failing writes until then.
 */
export class DiskSpace implements StorageSpace {
  private reopenTable: () => Promise<void> = async () => undefined;
  private writeFailed: DiskFullSignal | undefined;
  private turn: Promise<unknown> = Promise.resolve();
  /** The statfs under way, and the one that starts after it, which every check asking meanwhile shares. */
  private statfsRunning: Promise<FreeSpace> | undefined;
  private statfsQueued: Promise<FreeSpace> | undefined;
  /** Counts the reserve's writes, so a check knows whether its statfs saw the latest one. */
  private reserveWrites = 0;

  private constructor(
    private readonly dataDir: string,
    private reserved: boolean,
  ) {}

  /**
   * The data folder's space at start: the reserve written when there is room for it, or released
   * when the disk is full so the database can open (`released`: the start released it already to
   * take the data-folder lock, see `release`). `readOnly` says why writes are refused now.
   */
  static async prepare(dataDir: string, released = false): Promise<{ space: DiskSpace; readOnly?: string }> {
    // A reserve a kill cut short holds space and guarantees nothing.
    for (const name of await readdir(dataDir))
      if (name.startsWith(`${SPACE_RESERVE_FILE}.`)) await rm(join(dataDir, name), { force: true });
    const space = new DiskSpace(dataDir, await exists(join(dataDir, SPACE_RESERVE_FILE)));
    let free = await space.freeBytes();
    if (!released && !space.reserved && free >= SPACE_RESERVE_BYTES + WRITE_HEADROOM_BYTES && (await space.writeReserve())) {
      free -= SPACE_RESERVE_BYTES;
    }
    if (space.reserved && free < WRITE_HEADROOM_BYTES) {
      await DiskSpace.release(dataDir);
      space.reserved = false;
      released = true;
    }
    if (space.reserved || free >= SPACE_RESERVE_BYTES + WRITE_HEADROOM_BYTES) return { space };
    const reserve = released
      ? `released the ${SPACE_RESERVE_BYTES}-byte space reserve to open the database`
      : "no space reserve to release";
    return {
      space,
      readOnly:
        `the disk of ${dataDir} is full (${await space.freeBytes()} bytes free; ${reserve}): reads work, writes answer ` +
        `507 until ${SPACE_RESERVE_BYTES + WRITE_HEADROOM_BYTES} bytes are free, and then work again without a restart`,
    };
  }

  /** Removes the reserve, to make room for what a start must write on a full disk (the data-folder lock, the database's recovery). */
  static async release(dataDir: string): Promise<void> {
    await rm(join(dataDir, SPACE_RESERVE_FILE), { force: true });
  }

  /**
   * Once the emulators run: the signal they raise when a write failed for want of space, and what
   * clears LevelDB's kept write error then (`Emulators.reopenTable`).
   */
  attach(writeFailed: DiskFullSignal, reopenTable: () => Promise<void>): void {
    this.writeFailed = writeFailed;
    this.reopenTable = reopenTable;
  }

  assertRoomFor(sentBytes: number): Promise<void> {
    const measured = this.freshFreeSpace();
    // One at a time: two writes must not both write the reserve.
    const check = this.turn.then(() => this.admit(sentBytes, measured));
    this.turn = check.catch(() => undefined);
    return check;
  }

  /**
   * The free bytes from a statfs that starts after this call, shared by every check that asks
   * before it starts: 10 concurrent uploads cost one or two statfs, not 20 in a row (7% of the
   * server's thread), and each check's figure is as fresh as one of its own would be.
   */
  private freshFreeSpace(): Promise<FreeSpace> {
    if (this.statfsQueued !== undefined) return this.statfsQueued;
    if (this.statfsRunning === undefined) return this.startStatfs();
    const queued = this.statfsRunning
      .catch(() => undefined)
      .then(() => {
        this.statfsQueued = undefined;
        return this.startStatfs();
      });
    this.statfsQueued = queued;
    return queued;
  }

  private startStatfs(): Promise<FreeSpace> {
    const reserveWrites = this.reserveWrites;
    const running: Promise<FreeSpace> = this.freeBytes()
      .then((free) => ({ free, reserveWrites }))
      .finally(() => {
        if (this.statfsRunning === running) this.statfsRunning = undefined;
      });
    this.statfsRunning = running;
    return running;
  }

  private async admit(sentBytes: number, measured: Promise<FreeSpace>): Promise<void> {
    const needed = 2 * Math.max(0, sentBytes) + WRITE_HEADROOM_BYTES;
    const shared = await measured;
    // A reserve written since that statfs started took space it did not see: measure again.
    let free = shared.reserveWrites === this.reserveWrites ? shared.free : await this.freeBytes();
    if (!this.reserved) {
      if (free < needed + SPACE_RESERVE_BYTES || !(await this.writeReserve())) {
        throw storageFull(
          `The disk of ${this.dataDir} has ${free} bytes free; writes need ${needed + SPACE_RESERVE_BYTES} ` +
            `(${SPACE_RESERVE_BYTES} of them kept in ${this.reserveFile}, so the registry can always start).`,
        );
      }
      free -= SPACE_RESERVE_BYTES;
      console.log(`[registry] ${this.dataDir} has room again (${free} bytes free): space reserve restored, writes accepted`);
    }
    if (free < needed) {
      throw storageFull(`The disk of ${this.dataDir} has ${free} bytes free; this write needs about ${needed}.`);
    }
    if (this.writeFailed?.take()) await this.reopenTable();
  }

  /** Writes the reserve (through a temporary file, so a full disk leaves none half-written); false when it does not fit. */
  private async writeReserve(): Promise<boolean> {
    const temporary = `${this.reserveFile}.${randomUUID()}.partial`;
    try {
      // Random bytes: a compressing file system would store zeros in no space at all.
      await writeFile(temporary, randomFillSync(Buffer.alloc(SPACE_RESERVE_BYTES)), { flag: "wx" });
      await rename(temporary, this.reserveFile);
      this.reserved = true;
      this.reserveWrites++;
      return true;
    } catch (error) {
      await rm(temporary, { force: true });
      if (isDiskFull(error)) return false;
      throw error;
    }
  }

  private async freeBytes(): Promise<number> {
    const stats = await statfs(this.dataDir);
    return stats.bavail * stats.bsize;
  }

  private get reserveFile(): string {
    return join(this.dataDir, SPACE_RESERVE_FILE);
  }
}

/** Free bytes on the data folder's disk, and how many reserve writes had happened when they were measured. */
interface FreeSpace {
  free: number;
  reserveWrites: number;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return false;
      throw error;
    },
  );
}
