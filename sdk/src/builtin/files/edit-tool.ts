import type { PermissionContext, PermissionDecision } from "../../permission/types.js";
import type { ToolCallContext, ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { FileToolProblem, readText, requireAbsolute, requireCurrentRead, requireFile } from "./file-access.js";
import { checkWritePermission, FileToolBase, type FilePathInput } from "./file-tool-base.js";
import { unifiedDiff } from "./unified-diff.js";

export interface EditInput extends FilePathInput {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/**
 * Exact string replacement in a file that was read and has not changed since. It edits the file
 * as it is on disk now (never a cached copy), and records the result, so a second Edit follows
 * without another Read.
 */
export class Edit extends FileToolBase<EditInput> {
  readonly name = "Edit";
  readonly description =
    "Performs an exact string replacement in a file. file_path must be absolute; the file must have been read with the Read tool. " +
    "old_string must occur exactly once unless replace_all is true; include surrounding lines to make it unique.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      file_path: { type: "string", description: "The absolute path of the file to modify." },
      old_string: { type: "string", description: "The text to replace." },
      new_string: { type: "string", description: "The text to replace it with (must differ from old_string)." },
      replace_all: { type: "boolean", default: false, description: "Replace every occurrence of old_string." },
    },
    required: ["file_path", "old_string", "new_string"],
  };

  checkPermissions(input: EditInput, context: PermissionContext): PermissionDecision {
    return checkWritePermission(this, input.file_path, context);
  }

  override async call(input: EditInput, context: ToolCallContext = {}): Promise<ToolChunk> {
    try {
      const filePath = requireAbsolute(input.file_path);
      await requireFile(this.backend, filePath);
      if (typeof input.old_string !== "string" || typeof input.new_string !== "string")
        throw new FileToolProblem("Error: old_string and new_string are required strings.");
      if (input.old_string === input.new_string)
        throw new FileToolProblem("Error: old_string and new_string are identical. No changes to make.");
      if (input.old_string === "") throw new FileToolProblem("Error: old_string is empty. Use Write to create or replace a whole file.");
      const cache = this.readCache(context.state);
      const { bytes, text } = await readText(this.backend, filePath);
      requireCurrentRead(cache, filePath, bytes, "edit");
      const [oldString, newString] = matchLineEndings(text, input.old_string, input.new_string);
      const occurrences = text.split(oldString).length - 1;
      if (occurrences === 0) throw new FileToolProblem(`Error: old_string not found in ${filePath}`);
      if (occurrences > 1 && !input.replace_all) {
        throw new FileToolProblem(
          `Error: old_string appears ${occurrences} times in ${filePath}. Set ` +
            `replace_all=true to replace all occurrences, or make old_string more specific.`,
        );
      }
      const updated = input.replace_all ? text.split(oldString).join(newString) : text.replace(oldString, () => newString);
      await this.backend.writeFile(filePath, updated);
      const written = await this.backend.stat(filePath);
      cache.remember(filePath, Buffer.from(updated, "utf8"), written?.mtimeMs ?? Date.now());
      const replaced = input.replace_all ? occurrences : 1;
      const message =
        replaced === 1
          ? `Successfully replaced 1 occurrence in ${filePath}`
          : `Successfully replaced all ${replaced} occurrences in ${filePath}`;
      return ToolChunk.text(message, {
        metadata: { diff: unifiedDiff(text, updated, filePath), file_path: filePath, occurrences: replaced },
      });
    } catch (error) {
      if (error instanceof FileToolProblem) return ToolChunk.error(error.message);
      throw error;
    }
  }
}

/** Read shows CRLF files with LF: when the LF form is not found, try the CRLF form. */
function matchLineEndings(text: string, oldString: string, newString: string): [string, string] {
  if (text.includes(oldString) || !text.includes("\r\n") || !oldString.includes("\n")) return [oldString, newString];
  const crlf = (value: string) => value.replace(/\r?\n/g, "\r\n");
  return text.includes(crlf(oldString)) ? [crlf(oldString), crlf(newString)] : [oldString, newString];
}
