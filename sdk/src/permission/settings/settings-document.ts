import { readFile } from "node:fs/promises";
import { writeAtomically } from "../../atomic-file.js";
import { PermissionSettingsError } from "../errors.js";
import { isObject } from "./project-trust.js";

/**
 * A settings file as a JSON object, for the commands that edit one (trusting a folder, revoking a
 * rule): a missing file is `{}`; one that is not a JSON object is refused, never overwritten.
 */
export async function readSettingsDocument(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    parsed = (error as Error).message;
  }
  if (!isObject(parsed)) {
    throw new PermissionSettingsError([
      { file: path, message: `not a JSON object (${typeof parsed === "string" ? parsed : typeof parsed}); fix it before it is written to` },
    ]);
  }
  return parsed;
}

/** Writes the document whole (temp file + rename), indented as people write these files. */
export function writeSettingsDocument(path: string, document: Record<string, unknown>): Promise<void> {
  return writeAtomically(path, `${JSON.stringify(document, null, 2)}\n`);
}
