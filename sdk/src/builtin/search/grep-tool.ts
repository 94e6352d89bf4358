import type { PermissionContext } from "../../permission/types.js";
import { resolveRealPath } from "../../permission/working-directories.js";
import type { ToolCallContext, ToolInputSchema } from "../../tool/tool-base.js";
import { ToolChunk } from "../../tool/tool-chunk.js";
import { ripgrepGlobFilter, treeReadProblem, type ReadProblem } from "../paths/read-confinement.js";
import type { TreeReading } from "../paths/tree-secrets.js";
import { SearchToolBase, VCS_DIRECTORIES, type SearchInput } from "./search-tool-base.js";

export type GrepOutputMode = "content" | "files_with_matches" | "count";

export interface GrepInput extends SearchInput {
  glob?: string;
  type?: string;
  output_mode?: GrepOutputMode;
  "-i"?: boolean;
  "-n"?: boolean;
  "-A"?: number;
  "-B"?: number;
  "-C"?: number;
  context?: number;
  head_limit?: number;
  offset?: number;
  multiline?: boolean;
}

export const DEFAULT_HEAD_LIMIT = 250;
const GREP_TIMEOUT_MS = 30_000;

/** Searches file contents with ripgrep (`@vscode/ripgrep`'s binary); `.gitignore` is honoured, hidden files are searched. */
export class Grep extends SearchToolBase<GrepInput> {
  readonly name = "Grep";
  readonly description =
    'Searches file contents with ripgrep (Rust regex syntax). Filter files with glob (e.g. "*.ts") or type (e.g. "py"). ' +
    'output_mode: "files_with_matches" (default, file paths), "content" (matching lines; supports -n, -A, -B, -C) or "count". ' +
    "head_limit caps the output lines (default 250, 0 for all); multiline lets patterns span lines.";
  readonly inputSchema: ToolInputSchema = {
    type: "object",
    properties: {
      pattern: { type: "string", description: "The regular expression to search for." },
      path: { type: "string", description: "File or directory to search (default: the working directory)." },
      glob: { type: "string", description: 'Glob filter for files, e.g. "*.js" or "*.{ts,tsx}".' },
      type: { type: "string", description: "ripgrep file type, e.g. js, py, rust." },
      output_mode: { type: "string", enum: ["content", "files_with_matches", "count"] },
      "-i": { type: "boolean", description: "Case-insensitive search." },
      "-n": { type: "boolean", description: "Show line numbers (content mode; default true)." },
      "-A": { type: "integer", minimum: 0, description: "Lines after each match (content mode)." },
      "-B": { type: "integer", minimum: 0, description: "Lines before each match (content mode)." },
      "-C": { type: "integer", minimum: 0, description: "Lines before and after each match (content mode)." },
      context: { type: "integer", minimum: 0, description: "Alias of -C." },
      head_limit: { type: "integer", minimum: 0, description: `Show at most this many lines (default ${DEFAULT_HEAD_LIMIT}; 0 = all).` },
      offset: { type: "integer", minimum: 0, description: "Skip this many output lines first." },
      multiline: { type: "boolean", description: "Let . and patterns match across lines." },
    },
    required: ["pattern"],
  };

  /**
   * The root (a file, or a tree as ripgrep walks it: hidden files read, `.gitignore` honoured unless a glob
   * overrides it, links not followed).
   */
  protected readProblem(input: GrepInput, context: PermissionContext | undefined): ReadProblem | undefined {
    const { reading, reads } = this.contentReading(input);
    return treeReadProblem(this.searchRoot(input), this.scope.readScope(context), reading, reads);
  }

  protected contentReading(input: GrepInput): { reading: TreeReading; reads: ((path: string) => boolean) | undefined } {
    const globs = splitGlobs(typeof input.glob === "string" ? input.glob : undefined);
    // A `--glob` overrides ripgrep's ignore files, but then only matching files are read.
    return {
      reading: { hidden: true, gitignore: globs.length === 0, followsLinks: false },
      reads: ripgrepGlobFilter(globs, resolveRealPath(this.searchRoot(input), this.cwd)),
    };
  }

  override async call(input: GrepInput, context: ToolCallContext = {}): Promise<ToolChunk> {
    if (typeof input.pattern !== "string" || input.pattern === "")
      return ToolChunk.error("Error: pattern is required and must be a non-empty string.");
    const root = this.searchRoot(input);
    if (!(await this.backend.stat(root))) return ToolChunk.error(`Error: path not found: ${root}`);
    const result = await this.backend.grep(ripgrepArguments(input, root), {
      cwd: this.cwd,
      timeoutMs: GREP_TIMEOUT_MS,
      signal: context.signal,
    });
    if (result.timedOut) return ToolChunk.error(`Error: ripgrep timed out after ${GREP_TIMEOUT_MS}ms. Narrow the path, glob or type.`);
    if (result.exitCode !== 0 && result.exitCode !== 1) {
      const stderr = result.stderr.trim();
      if (/regex parse error|error parsing regex|unclosed|unopened|repetition operator/i.test(stderr)) {
        return ToolChunk.error(
          `Error: invalid regular expression ${JSON.stringify(input.pattern)} (ripgrep uses ` +
            `Rust regex syntax; escape special characters such as ( [ { with \\):\n${stderr}`,
        );
      }
      return ToolChunk.error(`ripgrep error (code ${result.exitCode}): ${stderr}`);
    }
    const lines = result.stdout.split("\n").filter((line) => line !== "");
    if (lines.length === 0) return ToolChunk.text(`No matches found for pattern: ${input.pattern}`, { metadata: { count: 0 } });
    const offset = Math.max(0, input.offset ?? 0);
    const limit = input.head_limit ?? DEFAULT_HEAD_LIMIT;
    const shown = limit === 0 ? lines.slice(offset) : lines.slice(offset, offset + limit);
    const truncated = offset > 0 || shown.length < lines.length - offset;
    const note = truncated ? `\n\n[Showing results with pagination = limit: ${limit}${offset > 0 ? `, offset: ${offset}` : ""}]` : "";
    return ToolChunk.text(shown.join("\n") + note, { metadata: { count: lines.length } });
  }
}

/** The ripgrep command line of docs/design/builtin-tools.md#grep-command-line. */
export function ripgrepArguments(input: GrepInput, root: string): string[] {
  const mode = input.output_mode ?? "files_with_matches";
  const args = [
    "--hidden",
    ...VCS_DIRECTORIES.flatMap((name) => ["--glob", `!${name}`]),
    "--max-columns",
    "500",
    "--sort",
    "path",
    "--no-config",
  ];
  if (input.multiline) args.push("-U", "--multiline-dotall");
  if (input["-i"]) args.push("-i");
  if (mode === "files_with_matches") args.push("-l");
  else if (mode === "count") args.push("-c");
  else {
    if (input["-n"] !== false) args.push("-n");
    const around = input.context ?? input["-C"];
    if (around !== undefined) args.push("-C", String(around));
    else {
      if (input["-B"] !== undefined) args.push("-B", String(input["-B"]));
      if (input["-A"] !== undefined) args.push("-A", String(input["-A"]));
    }
  }
  args.push("-e", input.pattern);
  if (input.type) args.push("--type", input.type);
  for (const glob of splitGlobs(input.glob)) args.push("--glob", glob);
  args.push("--", root);
  return args;
}

/** Globs separated by spaces or commas; a piece with braces is kept whole (`*.{ts,tsx}`). */
function splitGlobs(glob: string | undefined): string[] {
  if (!glob) return [];
  return glob
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((piece) => (piece.includes("{") && piece.includes("}") ? [piece] : piece.split(",").filter(Boolean)));
}
