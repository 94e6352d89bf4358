import type { ArchiveErrorCode } from "../error-codes.js";
import { AgentToolsError } from "../errors.js";

export type { ArchiveErrorCode } from "../error-codes.js";

/** A tool archive (or bundle) that cannot be accepted: `message` says what is wrong and how to fix it. */
export class ArchiveError extends AgentToolsError<ArchiveErrorCode> {
  constructor(code: ArchiveErrorCode, message: string, options: { toolId?: string; cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** Size-limit codes: callers map these to "payload too large" rather than "invalid". */
export const ARCHIVE_LIMIT_CODES: ReadonlySet<ArchiveErrorCode> = new Set([
  "ARCHIVE_TOO_MANY_ENTRIES",
  "ARCHIVE_ENTRY_TOO_LARGE",
  "ARCHIVE_TOTAL_TOO_LARGE",
  "ARCHIVE_COMPRESSION_RATIO",
]);
