import { isAbsolute } from "node:path";
import type { WorkspaceBackend, FileStat } from "../workspace/workspace-backend.js";
import type { ReadCache } from "./read-cache.js";
import { sha256 } from "./read-cache.js";
import { decodeText, MAX_TEXT_FILE_BYTES } from "./text-file.js";

/** A problem with the tool input or the file, reported to the model as an error result. */
export class FileToolProblem extends Error {}

export function requireAbsolute(filePath: unknown): string {
  if (typeof filePath !== "string" || filePath === "") throw new FileToolProblem("Error: file_path is required and must be a string.");
  if (!isAbsolute(filePath)) throw new FileToolProblem(`Error: file_path must be an absolute path, got: ${filePath}`);
  return filePath;
}

/** The file's stat, or a clear error for a missing path or a directory. */
export async function requireFile(backend: WorkspaceBackend, filePath: string): Promise<FileStat> {
  const stat = await backend.stat(filePath);
  if (!stat) throw new FileToolProblem(`Error: File not found: ${filePath}`);
  if (stat.isDirectory)
    throw new FileToolProblem(`Error: ${filePath} is a directory, not a file. Use Glob or Bash (ls) to list a directory.`);
  if (stat.size > MAX_TEXT_FILE_BYTES)
    throw new FileToolProblem(
      `Error: ${filePath} is too large (${stat.size} bytes, limit ${MAX_TEXT_FILE_BYTES}). ` +
        `Use Grep to search it, or Bash (head/tail/sed -n) to see parts.`,
    );
  return stat;
}

/** UTF-8 text of an existing file, or a clear error for binary and non-UTF-8 files. */
export async function readText(backend: WorkspaceBackend, filePath: string): Promise<{ bytes: Buffer; text: string }> {
  const bytes = await backend.readFile(filePath);
  const decoded = decodeText(bytes);
  if (!decoded.ok) {
    throw new FileToolProblem(
      decoded.problem === "binary"
        ? `Error: ${filePath} is a binary file and cannot be shown or edited as text.`
        : `Error: ${filePath} is not valid UTF-8 text. Convert it (e.g. with iconv) or use Bash to work on it.`,
    );
  }
  return { bytes, text: decoded.text };
}

/** Read-before-write: an existing file must have been read (into this ledger), and must still have the content that was read. */
export function requireCurrentRead(cache: ReadCache, filePath: string, bytes: Uint8Array, action: "write" | "edit"): void {
  const record = cache.get(filePath);
  if (!record) {
    throw new FileToolProblem(
      action === "write"
        ? `Error: File ${filePath} exists but has not been read yet. You must read the file first before writing to it.`
        : "Error: To edit a file, you must first read it using the Read tool.",
    );
  }
  if (record.sha256 !== sha256(bytes)) {
    throw new FileToolProblem(
      `Error: File ${filePath} has been modified since it was last read (by ` +
        `the user or another process). Read it again before you ${action} it.`,
    );
  }
}
