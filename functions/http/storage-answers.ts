import { HttpProblem } from "../http-problem.js";

/** Seconds a client should wait before retrying when storage is throttled or unreachable. */
export const STORAGE_RETRY_AFTER_SECONDS = 1;
/** Seconds a client should wait before retrying a write refused for lack of space: someone must free some first. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 60;

/**
 * The registry's answers when storage itself fails rather than the request: every route's, so a
 * client can always tell "retry later" from "fix the request". docs/errors.md lists them
 * (generated from this table by test/docs/write-error-codes.ts).
 */
export const STORAGE_ANSWERS = {
  "Storage unavailable": {
    status: 503,
    retryAfterSeconds: STORAGE_RETRY_AFTER_SECONDS,
    meaning:
      "Storage is throttled, timed out or unreachable after the SDK's retries; retry " +
      "after `Retry-After`: a retried write finishes whatever the failed one started.",
  },
  "Insufficient Storage": {
    status: 507,
    retryAfterSeconds: STORAGE_FULL_RETRY_AFTER_SECONDS,
    meaning:
      "The local server's disk is full (`npm start`): the write was refused before anything was " +
      "stored, reads keep working, and writes work again as soon as space is freed, without a restart.",
  },
} as const;

/** 503 with `Retry-After`: storage could not serve the call. */
export function storageUnavailable(): HttpProblem {
  const answer = STORAGE_ANSWERS["Storage unavailable"];
  return new HttpProblem(
    answer.status,
    "Storage unavailable",
    `The registry's storage is throttled or unreachable right now. Retry in ` +
      `${answer.retryAfterSeconds} s (Retry-After): a retried write finishes whatever this one started.`,
    { "Retry-After": String(answer.retryAfterSeconds) },
  );
}

/** 507 with `Retry-After`: the disk that holds the local server's data is full. `why` says how full and what to free. */
export function storageFull(why: string): HttpProblem {
  const answer = STORAGE_ANSWERS["Insufficient Storage"];
  return new HttpProblem(
    answer.status,
    "Insufficient Storage",
    `${why} This write was refused before anything was stored; reads keep working. Free space there and retry ` +
      `(Retry-After: ${answer.retryAfterSeconds} s): writes work again as soon as there is room, without a restart.`,
    { "Retry-After": String(answer.retryAfterSeconds) },
  );
}
