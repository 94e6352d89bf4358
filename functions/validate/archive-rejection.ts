import { ARCHIVE_LIMIT_CODES, ArchiveError } from "@agent-tools/sdk/archive";
import { HttpProblem } from "../http-problem.js";

export const PROCESSING_FAILED = "Failed to process tool package";

/**
 * The HTTP answer for an archive the guards refused: 413 for size limits (a bomb included),
 * otherwise `invalidStatus` (400 for the bundle zip itself, 422 for a tool archive inside it), named by `subject`.
 */
export function archiveRejection(error: unknown, subject: string, invalidStatus: 400 | 422): unknown {
  if (!(error instanceof ArchiveError)) return error;
  if (ARCHIVE_LIMIT_CODES.has(error.code)) return new HttpProblem(413, PROCESSING_FAILED, `${subject}: ${error.message}`);
  return new HttpProblem(
    invalidStatus,
    PROCESSING_FAILED,
    `${subject}: ${error.message}`,
    {},
    invalidStatus === 400 ? "INVALID_BUNDLE" : "INVALID_ARCHIVE",
  );
}
