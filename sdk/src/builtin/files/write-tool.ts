import type { PermissionContext, PermissionDecision } from "../../permission/types.js";
import type { ToolCallContext, ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { FileToolProblem, readText, requireAbsolute, requireCurrentRead } from "./file-access.js";
import { checkWritePermission, FileToolBase, type FilePathInput } from "./file-tool-base.js";
import { unifiedDiff } from "./unified-diff.js";

export interface WriteInput extends FilePathInput {
  content: string;
}

/** Creates or overwrites a file; an existing file must have been read first, and not changed since. */
export class Write extends FileToolBase<WriteInput> {
  readonly name = "Write";
  readonly description =
    "Writes a file to the local filesystem, creating parent directories. file_path must be absolute. " +
    "Overwriting an existing file requires reading it with the Read tool first. Prefer Edit for changes to existing files.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      file_path: { type: "string", description: "The absolute path of the file to write." },
      content: { type: "string", description: "The content to write." },
    },
    required: ["file_path", "content"],
  };

  checkPermissions(input: WriteInput, context: PermissionContext): PermissionDecision {
    return checkWritePermission(this, input.file_path, context);
  }

  override async call(input: WriteInput, context: ToolCallContext = {}): Promise<ToolChunk> {
    try {
      const filePath = requireAbsolute(input.file_path);
      if (typeof input.content !== "string") throw new FileToolProblem("Error: content is required and must be a string.");
      const cache = this.readCache(context.state);
      const stat = await this.backend.stat(filePath);
      if (stat?.isDirectory) throw new FileToolProblem(`Error: ${filePath} is a directory, not a file.`);
      let before: string | undefined;
      if (stat) {
        const existing = await readText(this.backend, filePath).catch((error: unknown) => {
          if (error instanceof FileToolProblem) return { bytes: undefined, text: undefined };
          throw error;
        });
        const bytes = existing.bytes ?? (await this.backend.readFile(filePath));
        requireCurrentRead(cache, filePath, bytes, "write");
        before = existing.text;
      }
      await this.backend.writeFile(filePath, input.content);
      const written = await this.backend.stat(filePath);
      cache.remember(filePath, Buffer.from(input.content, "utf8"), written?.mtimeMs ?? Date.now());
      const lineCount = input.content.split("\n").length;
      return ToolChunk.text(`The file ${filePath} has been written successfully (${lineCount} lines).`, {
        metadata: { diff: unifiedDiff(stat ? (before ?? "") : undefined, input.content, filePath), file_path: filePath, occurrences: 1 },
      });
    } catch (error) {
      if (error instanceof FileToolProblem) return ToolChunk.error(error.message);
      throw error;
    }
  }
}
