import { isStorageFull } from "../storage/storage-errors.js";
import type { CatalogIndexer } from "./catalog-indexer.js";

/**
 * The in-process indexer of the local server: a run `delayMs` after the last write (a burst of
 * uploads costs one run), never two at a time, and one at start so a snapshot exists. Failures
 * are logged, never thrown at the writer: the index then stays on the previous snapshot plus the log.
 */
export class IndexerSchedule {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly indexer: Pick<CatalogIndexer, "run">,
    private readonly delayMs: number,
  ) {}

  /** After a write: (re)starts the delay. */
  poke(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.runNow(), this.delayMs);
    this.timer.unref();
  }

  /** Runs now (after any run in progress); resolves when done. */
  runNow(): Promise<void> {
    clearTimeout(this.timer);
    this.running = this.running.then(async () => {
      if (this.closed) return;
      try {
        await this.indexer.run();
      } catch (error) {
        // A full disk (local server) is said in one line: the next write's run, once there is room, catches up.
        if (isStorageFull(error)) console.error(`[search] index snapshot not rebuilt, the disk is full: ${(error as Error).message}`);
        else console.error("[search] index snapshot rebuild failed:", error);
      }
    });
    return this.running;
  }

  /** Resolves once no run is in progress (one a later write pokes may start after). */
  idle(): Promise<void> {
    return this.running;
  }

  /** Cancels a pending run and waits for one in progress. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
