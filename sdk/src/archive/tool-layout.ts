import { ArchiveError } from "./archive-error.js";
import type { ArchiveEntry, ToolArchive } from "./archive-entry.js";

export const PYTHON_ENTRY_PATH = "code/function.py";

/** `code/function.py`, which must define `AgentSpaceV1Tool`, as a regular file. */
export function findPythonEntry(archive: ToolArchive): ArchiveEntry {
  const entry = archive.entries.find((candidate) => candidate.path === PYTHON_ENTRY_PATH && candidate.type === "file");
  if (entry === undefined) {
    const found = archive.entries.filter((candidate) => candidate.type === "file").map((candidate) => candidate.path);
    throw new ArchiveError(
      "ARCHIVE_PYTHON_ENTRY_MISSING",
      `A Python tool needs code/function.py defining class AgentSpaceV1Tool, but the ` +
        `archive holds ${found.length === 0 ? "no files" : found.slice(0, 5).join(", ")}. ` +
        `Add code/function.py, or set tool_runtime_type to "binary" for an executable.`,
    );
  }
  return entry;
}

/**
 * The single executable of a binary tool: `code/` must hold exactly one entry, a regular file
 * with the executable bit (the binary contract runs "the first file it finds" there, docs/design/compatibility.md#binary-contract).
 */
export function findBinaryExecutable(archive: ToolArchive): ArchiveEntry {
  const contents = archive.entries.filter((entry) => entry.path !== "code");
  if (contents.length === 0 || contents.every((entry) => entry.type === "directory")) {
    throw new ArchiveError(
      "ARCHIVE_BINARY_MISSING",
      "A binary tool needs its executable in code/, but code/ holds no file. Put the compiled program there, then `tar czf tool.zip code`.",
    );
  }
  const [only] = contents;
  if (contents.length > 1 || only === undefined || only.type !== "file") {
    const listed = contents
      .slice(0, 5)
      .map((entry) => `${entry.path}${entry.type === "directory" ? "/" : entry.type === "symlink" ? " (symlink)" : ""}`)
      .join(", ");
    throw new ArchiveError(
      "ARCHIVE_BINARY_SEVERAL",
      `A binary tool's code/ must hold exactly one regular file, the executable, but it holds ` +
        `${listed}${contents.length > 5 ? ` and ${contents.length - 5} more` : ""}. Remove ` +
        `everything else (link dependencies statically), or set tool_runtime_type to "python".`,
    );
  }
  if ((only.mode & 0o111) === 0) {
    throw new ArchiveError(
      "ARCHIVE_BINARY_NOT_EXECUTABLE",
      `The binary "${only.path}" is not executable (mode ${only.mode.toString(8)}). Run \`chmod +x ${only.path}\` and ` +
        `pack with \`tar czf tool.zip code\`, which keeps permissions (a zip made without unix attributes drops them).`,
    );
  }
  return only;
}
