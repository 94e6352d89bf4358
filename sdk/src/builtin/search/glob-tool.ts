import { isAbsolute, relative, resolve } from "node:path";
import type { PermissionContext } from "../../permission/types.js";
import type { ToolCallContext, ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { globBaseDirectory, pathReadProblem, type ReadProblem } from "../paths/read-confinement.js";
import { SearchToolBase, VCS_DIRECTORIES, type SearchInput } from "./search-tool-base.js";

export type GlobInput = SearchInput;

/** More matches than this are cut, with a note telling the model to narrow the pattern. */
export const MAX_GLOB_RESULTS = 1000;

/** Finds files by glob pattern (`**`, `{a,b}`, `[abc]`), newest first; version-control directories are skipped. */
export class Glob extends SearchToolBase<GlobInput> {
  readonly name = "Glob";
  readonly description =
    'Fast file pattern matching. Supports glob patterns like "**/*.js" or "src/**/*.{ts,tsx}". ' +
    "Returns matching file paths sorted by modification time, newest first. Use it to find files by name.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      pattern: { type: "string", description: "The glob pattern to match files against." },
      path: { type: "string", description: "The directory to search in (default: the working directory)." },
    },
    required: ["pattern"],
  };

  /** Glob lists names, not contents: its root and where its pattern starts must be inside the working directories and not secret. */
  protected readProblem(input: GlobInput, context: PermissionContext | undefined): ReadProblem | undefined {
    const scope = this.scope.readScope(context);
    const root = this.searchRoot(input);
    const own = pathReadProblem(root, scope);
    if (own !== undefined || typeof input.pattern !== "string") return own;
    const base = this.patternBase(input);
    if (base === undefined) return { kind: "outside", message: `the pattern ${input.pattern} climbs out of ${root} after a wildcard` };
    return base === root ? undefined : pathReadProblem(base, scope);
  }

  protected contentReading(): undefined {
    return undefined;
  }

  protected override allowCovers(input: GlobInput, covers: (path: string) => boolean): boolean {
    const base = this.patternBase(input);
    return base !== undefined && covers(base);
  }

  private patternBase(input: GlobInput): string | undefined {
    if (typeof input.pattern !== "string") return this.searchRoot(input);
    const base = globBaseDirectory(this.searchRoot(input), input.pattern);
    return base === undefined ? undefined : resolve(base);
  }

  override async call(input: GlobInput, _context: ToolCallContext = {}): Promise<ToolChunk> {
    if (typeof input.pattern !== "string" || input.pattern.trim() === "")
      return ToolChunk.error("Error: pattern is required and must be a non-empty string.");
    const root = this.searchRoot(input);
    const stat = await this.backend.stat(root);
    if (!stat?.isDirectory) return ToolChunk.error(`Directory not found: ${root}`);
    let pattern = input.pattern;
    if (isAbsolute(pattern)) {
      const inside = relative(root, pattern);
      if (inside.startsWith(".."))
        return ToolChunk.error(`Error: the pattern ${pattern} is outside the searched directory ${root}. Pass that directory as path.`);
      pattern = inside;
    }
    const files = await this.backend.glob(pattern, { cwd: root, ignore: VCS_DIRECTORIES.map((name) => `**/${name}/**`) });
    if (files.length === 0) return ToolChunk.text(`No files found matching pattern: ${input.pattern}`, { metadata: { count: 0 } });
    const withTimes = await Promise.all(files.map(async (file) => ({ file, mtime: (await this.backend.stat(file))?.mtimeMs ?? 0 })));
    withTimes.sort((a, b) => b.mtime - a.mtime || a.file.localeCompare(b.file));
    const shown = withTimes.slice(0, MAX_GLOB_RESULTS).map((entry) => entry.file);
    const note =
      files.length > MAX_GLOB_RESULTS
        ? `\n\n(Results are truncated: showing ${MAX_GLOB_RESULTS} of ${files.length}. Use a more specific pattern or path.)`
        : "";
    return ToolChunk.text(shown.join("\n") + note, { metadata: { count: files.length } });
  }
}
