import { ARCHIVE_LIMIT_CODES, ArchiveError } from "@agent-tools/sdk/archive";
import { HttpProblem } from "../http-problem.js";

export const PROCESSING_FAILED = "Failed to process tool package";

/**
 * The HTTP answer for an archive the guards refused: 413 for size limits (a bomb included),
 * otherwise `invalidStatus` (400 for the bundle zip itself, 422 for the tool.zip inside it).
 */
export function archiveRejection(error: unknown, subject: "The bundle" | "tool.zip", invalidStatus: 400 | 422): unknown {
  if (!(error instanceof ArchiveError)) return error;
  const status = ARCHIVE_LIMIT_CODES.has(error.code) ? 413 : invalidStatus;
  return new HttpProblem(status, PROCESSING_FAILED, `${subject}: ${error.message}`);
}
