// `@agent-tools/sdk/archive`: reading tool archives safely (zip, tar, tar.gz), shared with the registry's validation.
export { ArchiveError, ARCHIVE_LIMIT_CODES, type ArchiveErrorCode } from "./archive-error.js";
export type { ArchiveEntry, ArchiveEntryType, ToolArchive } from "./archive-entry.js";
export { detectArchiveFormat, type ArchiveFormat } from "./archive-format.js";
export { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from "./archive-limits.js";
export { readArchive } from "./archive-reader.js";
export { ArchiveIntegrityError, extractToolArchive, type ExtractedArchive, type ExtractOptions } from "./extract-to-directory.js";
export type { VettedEntry } from "./entry-guards.js";
export { readToolArchive } from "./tool-archive.js";
export { findBinaryExecutable, findPythonEntry, PYTHON_ENTRY_PATH } from "./tool-layout.js";
export { writeTar, type TarEntryKind, type TarInputEntry } from "./tar-writer.js";
