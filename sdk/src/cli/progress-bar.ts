import type { CliIo } from "./cli-io.js";

/** Reports bytes moved so far of `total` (undefined when the size is not known in advance). */
export type TransferProgress = (done: number, total: number | undefined) => void;

export interface ProgressBarOptions {
  /** Transfers smaller than this draw nothing (they are over before a bar helps). Default 1 MiB. */
  minBytes?: number;
  /** Milliseconds between redraws. Default 100. */
  intervalMs?: number;
  now?: () => number;
}

const WIDTH = 24;

/**
 * A one-line progress bar on stderr with bytes and rate, e.g.
 * `Uploading [##########..............] 4.2 MB / 10.0 MB  3.1 MB/s`. It draws only when a person
 * is at the terminal (`io.interactive`), so scripts and CI logs stay clean.
 */
export function progressBar(io: CliIo, label: string, options: ProgressBarOptions = {}): { update: TransferProgress; finish(): void } {
  const now = options.now ?? Date.now;
  const minBytes = options.minBytes ?? 1024 * 1024;
  const intervalMs = options.intervalMs ?? 100;
  const started = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const draw = (done: number, total: number | undefined) => {
    const elapsed = Math.max(now() - started, 1) / 1000;
    const rate = `${formatBytes(done / elapsed)}/s`;
    const bar = total === undefined ? "" : ` [${"#".repeat(Math.round((done / Math.max(total, 1)) * WIDTH)).padEnd(WIDTH, ".")}]`;
    const amount = total === undefined ? formatBytes(done) : `${formatBytes(done)} / ${formatBytes(total)}`;
    io.err(`\r${label}${bar} ${amount}  ${rate}\u001b[K`);
    drawn = true;
  };
  return {
    update(done, total) {
      if (!io.interactive || (total ?? done) < minBytes) return;
      const time = now();
      if (time - lastDraw < intervalMs && done !== total) return;
      lastDraw = time;
      draw(done, total);
    },
    finish() {
      if (drawn) io.err("\n");
    },
  };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
