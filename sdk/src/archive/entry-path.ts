import { ArchiveError } from "./archive-error.js";

/**
 * The safe relative posix form of an archive entry name: `./code//a.py` becomes `code/a.py`,
 * the archive root (`./`) becomes `""`. Names that could land outside the extraction folder
 * (absolute, drive letters, `..`, backslashes that Windows treats as separators) are refused,
 * never silently rewritten, so an author sees exactly which entry is wrong.
 */
export function normaliseEntryPath(name: string): string {
  if (name.length === 0 || name.includes("\0")) {
    throw new ArchiveError(
      "ARCHIVE_PATH_INVALID",
      `An entry has an empty name or a NUL character (${JSON.stringify(name)}). Re-create the archive from plain files.`,
    );
  }
  if (name.includes("\\")) {
    throw new ArchiveError(
      "ARCHIVE_PATH_BACKSLASH",
      `The entry "${name}" contains a backslash, which Windows extractors treat as a folder ` +
        `separator (a path-traversal trick). Use "/" separators and no backslashes in file names.`,
    );
  }
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) {
    throw new ArchiveError(
      "ARCHIVE_PATH_ABSOLUTE",
      `The entry "${name}" has an absolute path; entries must be relative to the archive root, e.g. ` +
        `"code/function.py". Create the archive from inside the tool folder: \`zip -r tool.zip code\`.`,
    );
  }
  const segments = name.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) {
    throw new ArchiveError(
      "ARCHIVE_PATH_TRAVERSAL",
      `The entry "${name}" contains a ".." segment, which would write outside the ` +
        `extraction folder (zip slip). Entries must stay under code/, e.g. "code/function.py".`,
    );
  }
  return segments.join("/");
}

/** True for `code` itself and anything below it. */
export function isInsideCode(path: string): boolean {
  return path === "code" || path.startsWith("code/");
}
