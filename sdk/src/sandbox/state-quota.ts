import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";
import { SandboxDeniedError } from "./sandbox-errors.js";

/** At most one measurement per tool in this time: a warm call must not pay for a walk of its folder. */
const MEASURE_INTERVAL_MS = 1_000;
/** Entries a measurement walks; a folder holding more is over any sensible quota anyway. */
const MAX_ENTRIES = 100_000;

/**
 * The size cap of a tool's state folder (`limits.stateBytes`, docs/sandbox.md#limits). No kernel
 * mechanism bounds one folder of a shared filesystem without privileges the SDK does not take, so
 * the cap is enforced between calls: a call starts only after the folder was measured within the
 * last second (so a warm call rarely waits for a walk) and found under the cap; otherwise it is
 * refused, naming the limit, until the tool deletes what it kept or the cap is raised. A single
 * call can still write up to `fileSizeBytes` per file before it is stopped.
 */
export class StateQuota {
  private measuredAt = 0;
  private usedBytes = 0;
  private measuring: Promise<number> | undefined;

  constructor(
    private readonly toolId: string,
    private readonly stateDir: string,
    private readonly maxBytes: number,
  ) {}

  /** Throws `SandboxDeniedError` (`limits.stateBytes`) when the folder was over the cap when last measured. */
  async admit(): Promise<void> {
    if (Date.now() - this.measuredAt >= MEASURE_INTERVAL_MS) {
      this.measuring ??= this.measure().finally(() => (this.measuring = undefined));
      await this.measuring;
    }
    if (this.usedBytes <= this.maxBytes) return;
    throw new SandboxDeniedError(
      this.toolId,
      "limits.stateBytes",
      `its state folder ${this.stateDir} holds ${this.usedBytes} bytes, more than the ${this.maxBytes} allowed`,
      "Delete what the tool keeps there (or remove() the tool), or raise sandboxLimits.stateBytes in new AgentTools({ sandboxLimits }).",
    );
  }

  private async measure(): Promise<number> {
    this.usedBytes = await allocatedBytes(this.stateDir);
    this.measuredAt = Date.now();
    return this.usedBytes;
  }
}

/** Bytes the folder's files occupy on disk (allocated blocks, so a sparse file counts what it really holds). */
async function allocatedBytes(root: string): Promise<number> {
  let total = 0;
  let entries = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      continue; // removed meanwhile, or not a folder
    }
    for (const name of names) {
      if (++entries > MAX_ENTRIES) return Number.MAX_SAFE_INTEGER;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (info === undefined) continue;
      total += info.blocks * 512;
      if (info.isDirectory()) pending.push(path);
    }
  }
  return total;
}
