import type { RepairStore } from "../storage/repair-store.js";
import type { DoctorDeps } from "./doctor-deps.js";
import type { DoctorFinding } from "./doctor-report.js";
import { DEFAULT_GRACE_SECONDS } from "./run-doctor.js";

/** What a sweep reads and repairs: the doctor's stores, and its own progress. */
export type SweepDeps = DoctorDeps & { repair: RepairStore };

/** When a run stops taking new pages of work (a page started is finished, and its progress stored). */
export interface Budget {
  exhausted(): boolean;
}

/** A budget of `milliseconds` from now. */
export function timeBudget(milliseconds: number): Budget {
  const end = performance.now() + milliseconds;
  return { exhausted: () => performance.now() >= end };
}

export interface SweepOptions {
  fix: boolean;
  budget: Budget;
  /** Leave what an upload in flight may still be writing alone (as the doctor's `graceSeconds`). */
  graceSeconds?: number;
  /**
   * How long a write request can still be writing after its audit event was stored (longer than any
   * function's timeout): the incremental repair takes events older than the grace period plus this.
   */
  settleSeconds?: number;
  /** Items read per page of every part (a page is the unit a run finishes before it looks at its budget). */
  pageSize?: number;
  /** Parallel scan segments of the full pass. */
  segments?: number;
  /** A full pass starts this long after the previous one started. */
  fullPassEverySeconds?: number;
  /** Leave the full pass alone (only the incremental repair runs). */
  incrementalOnly?: boolean;
  now?: () => Date;
}

export type ResolvedSweepOptions = Required<Omit<SweepOptions, "now">> & { now: () => Date; isOld: (timestamp: string | Date) => boolean };

export const DEFAULT_SETTLE_SECONDS = 300;
export const DEFAULT_PAGE_SIZE = 100;
export const DEFAULT_SEGMENTS = 8;
export const DEFAULT_FULL_PASS_EVERY_SECONDS = 86_400;

export function resolveSweepOptions(options: SweepOptions): ResolvedSweepOptions {
  const now = options.now ?? (() => new Date());
  const graceSeconds = options.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  // A page of one cannot move past the event it starts after (auditPage skips it).
  if (!(Number.isSafeInteger(pageSize) && pageSize >= 2))
    throw new RangeError(`pageSize must be a whole number of at least 2, got ${pageSize}`);
  return {
    fix: options.fix,
    budget: options.budget,
    graceSeconds,
    settleSeconds: options.settleSeconds ?? DEFAULT_SETTLE_SECONDS,
    pageSize,
    segments: options.segments ?? DEFAULT_SEGMENTS,
    fullPassEverySeconds: options.fullPassEverySeconds ?? DEFAULT_FULL_PASS_EVERY_SECONDS,
    incrementalOnly: options.incrementalOnly ?? false,
    now,
    isOld: (timestamp) => now().getTime() - new Date(timestamp).getTime() >= graceSeconds * 1000,
  };
}

/** What one part of a sweep did in one run. */
export interface PartRun {
  toolsChecked: number;
  /** Items (and objects) read to find those tools: what the run cost. */
  itemsRead: number;
  pages: number;
  /** Whether it reached its end (the incremental repair: the newest settled event; the full pass: the whole table). */
  finished: boolean;
  findings: DoctorFinding[];
}

export function emptyRun(): PartRun {
  return { toolsChecked: 0, itemsRead: 0, pages: 0, finished: false, findings: [] };
}
