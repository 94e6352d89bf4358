export { ArchiveError, ARCHIVE_LIMIT_CODES, type ArchiveErrorCode } from "./archive-error.js";
export type { ArchiveEntry, ArchiveEntryType, ToolArchive } from "./archive-entry.js";
export { detectArchiveFormat, type ArchiveFormat } from "./archive-format.js";
export { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from "./archive-limits.js";
export { readArchive } from "./archive-reader.js";
export type { VettedEntry } from "./entry-guards.js";
export { readToolArchive } from "./tool-archive.js";
export { findBinaryExecutable, findPythonEntry, PYTHON_ENTRY_PATH } from "./tool-layout.js";
export { writeTar, type TarEntryKind, type TarInputEntry } from "./tar-writer.js";
