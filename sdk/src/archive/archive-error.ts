import { AgentToolsError } from "../errors.js";

/** Stable machine-readable reasons an archive is refused. */
export type ArchiveErrorCode =
  | "archive_unsupported_format"
  | "archive_corrupt"
  | "archive_unsupported_feature"
  | "archive_path_invalid"
  | "archive_path_absolute"
  | "archive_path_traversal"
  | "archive_path_backslash"
  | "archive_path_conflict"
  | "archive_duplicate_path"
  | "archive_entry_type"
  | "archive_link_escape"
  | "archive_outside_code"
  | "archive_no_code_folder"
  | "archive_too_many_entries"
  | "archive_entry_too_large"
  | "archive_total_too_large"
  | "archive_compression_ratio"
  | "tool_python_entry_missing"
  | "tool_binary_missing"
  | "tool_binary_several"
  | "tool_binary_not_executable";

/** A tool archive (or bundle) that cannot be accepted: `message` says what is wrong and how to fix it. */
export class ArchiveError extends AgentToolsError {
  declare readonly code: ArchiveErrorCode;

  constructor(code: ArchiveErrorCode, message: string, options: { toolId?: string; cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** Size-limit codes: callers map these to "payload too large" rather than "invalid". */
export const ARCHIVE_LIMIT_CODES: ReadonlySet<ArchiveErrorCode> = new Set([
  "archive_too_many_entries",
  "archive_entry_too_large",
  "archive_total_too_large",
  "archive_compression_ratio",
]);
