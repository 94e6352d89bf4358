import { ArchiveError } from "./archive-error.js";
import type { VettedEntry } from "./entry-guards.js";
import { isInsideCode } from "./entry-path.js";

/**
 * The layout every tool archive must have: everything inside one `code/` folder (the runtimes
 * extract the archive and run what is under `code/`), and symlinks that resolve inside it (every
 * link on the way followed, `archive-links.ts`).
 */
export function checkCodeLayout(entries: VettedEntry[]): void {
  const outside = entries.filter(({ path }) => !isInsideCode(path)).map(({ path }) => path);
  if (outside.length > 0) throw outsideCode(outside, outside.length < entries.length);
  if (entries.length === 0) {
    throw new ArchiveError(
      "ARCHIVE_NO_CODE_FOLDER",
      "The archive is empty; it must unpack to a code/ folder. From the tool " +
        "folder run `zip -r tool.zip code` (or `tar czf tool.zip code` for binaries).",
    );
  }
  for (const { path, type, raw, resolvedLink } of entries) {
    if (path === "code" && type !== "directory") {
      throw new ArchiveError(
        "ARCHIVE_NO_CODE_FOLDER",
        `"code" is a ${type}, not a folder; the archive must unpack to a code/ folder holding the tool.`,
      );
    }
    if (type !== "symlink" || isInsideCode(resolvedLink ?? "")) continue;
    throw new ArchiveError(
      "ARCHIVE_LINK_ESCAPE",
      `The symlink "${path}" points to "${raw.linkTarget}", which leads to "${resolvedLink || "."}" of the ` +
        `archive, outside code/. Links may only point to files inside code/; copy the file into code/ instead.`,
    );
  }
}

function outsideCode(outside: string[], hasCodeFolder: boolean): ArchiveError {
  const shown =
    outside
      .slice(0, 5)
      .map((path) => `"${path}"`)
      .join(", ") + (outside.length > 5 ? ` and ${outside.length - 5} more` : "");
  const nested = outside.map((path) => /^(.+?)\/code(\/|$)/.exec(path)?.[1]).find((folder) => folder !== undefined);
  const hint =
    nested === undefined
      ? "Put the tool's files in a code/ folder and archive that folder: `zip -r tool.zip code` (or `tar czf tool.zip code` for binaries)."
      : `The code/ folder is nested under "${nested}/": archive from inside that folder, e.g. \`cd ${nested} && zip -r tool.zip code\`.`;
  return new ArchiveError(
    hasCodeFolder ? "ARCHIVE_OUTSIDE_CODE" : "ARCHIVE_NO_CODE_FOLDER",
    `The archive must unpack to a code/ folder, but ${shown} ${outside.length === 1 ? "is" : "are"} outside it. ${hint}`,
  );
}
