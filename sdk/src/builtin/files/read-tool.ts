import { isAbsolute } from "node:path";
import type { PermissionContext, PermissionDecision } from "../../permission/types.js";
import { pathReadProblem, type ReadProblem } from "../paths/read-confinement.js";
import { readDecision } from "../paths/read-decision.js";
import type { ToolCallContext, ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { FileToolProblem, readText, requireAbsolute, requireFile } from "./file-access.js";
import { FileToolBase, type FilePathInput } from "./file-tool-base.js";
import { imageMediaType } from "./text-file.js";

export interface ReadInput extends FilePathInput {
  /** First line to show, 1-based (default 1). */
  offset?: number;
  /** How many lines (default and maximum 2000). */
  limit?: number;
}

export const MAX_READ_LINES = 2000;
export const MAX_LINE_LENGTH = 2000;

/** Reads a text file with line numbers (or an image as data); records what it read for Write and Edit. */
export class Read extends FileToolBase<ReadInput> {
  readonly name = "Read";
  readonly description =
    "Reads a file from the local filesystem. file_path must be absolute. Returns up to 2000 lines starting at offset " +
    "(1-based), each prefixed with its line number; longer lines are cut. Images (png, jpeg, gif, webp) are returned as data. " +
    "A file must be read before Write or Edit may change it.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      file_path: { type: "string", description: "The absolute path of the file to read." },
      offset: { type: "integer", minimum: 1, description: "The line number to start reading from (1-based)." },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: MAX_READ_LINES,
        description: `The number of lines to read (default ${MAX_READ_LINES}).`,
      },
    },
    required: ["file_path"],
  };
  override isReadOnly = true;
  override isConcurrencySafe = true;

  /** Auto-allowed only inside the working directories and outside secrets, judged on the real path. */
  override checkReadOnly(input: ReadInput, context?: PermissionContext): boolean {
    return this.readProblem(input, context) === undefined;
  }

  /** A secret asks even past allow rules; a file elsewhere goes to the rules and the mode. */
  checkPermissions(input: ReadInput, context: PermissionContext): PermissionDecision {
    return readDecision(this.readProblem(input, context), { asking: "Read of a sensitive file", readOnly: "Read is read-only" });
  }

  /** A relative or missing path reads nothing (the call refuses it), so it is no problem. */
  private readProblem(input: ReadInput, context: PermissionContext | undefined): ReadProblem | undefined {
    if (typeof input.file_path !== "string" || !isAbsolute(input.file_path)) return undefined;
    return pathReadProblem(input.file_path, this.scope.readScope(context));
  }

  override async call(input: ReadInput, context: ToolCallContext = {}): Promise<ToolChunk> {
    try {
      const filePath = requireAbsolute(input.file_path);
      const stat = await requireFile(this.backend, filePath);
      const mediaType = imageMediaType(filePath);
      if (mediaType) {
        const data = await this.backend.readFile(filePath);
        return new ToolChunk({
          content: [{ type: "data", source: { type: "base64", mediaType, data: data.toString("base64") }, name: filePath }],
          metadata: { file_path: filePath },
        });
      }
      const { bytes, text } = await readText(this.backend, filePath);
      this.readCache(context.state).remember(filePath, bytes, stat.mtimeMs);
      const offset = Math.max(1, Math.floor(input.offset ?? 1));
      const limit = Math.min(MAX_READ_LINES, Math.max(1, Math.floor(input.limit ?? MAX_READ_LINES)));
      const lines = text === "" ? [] : text.replace(/\r\n?/g, "\n").replace(/\n$/, "").split("\n");
      const shown = lines.slice(offset - 1, offset - 1 + limit).map((line, index) => {
        const cut = line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}[truncated]` : line;
        return `${String(offset + index).padStart(6)}\t${cut}`;
      });
      return ToolChunk.text(shown.join("\n"), {
        metadata: { file_path: filePath, total_lines: lines.length, offset, lines_shown: shown.length },
      });
    } catch (error) {
      if (error instanceof FileToolProblem) return ToolChunk.error(error.message);
      throw error;
    }
  }
}
