import { ToolChunk } from "../../tool/tool-chunk.js";
import type { ExecResult } from "../workspace/workspace-backend.js";

/** Output cap (docs/design/builtin-tools.md#bash-output): the model sees at most this many characters. */
export const MAX_OUTPUT_CHARACTERS = 30_000;

function capped(text: string): string {
  return text.length > MAX_OUTPUT_CHARACTERS ? `${text.slice(0, MAX_OUTPUT_CHARACTERS)}\n... (output truncated)` : text;
}

/** A finished command as one chunk, with the messages of docs/design/builtin-tools.md#bash-output. */
export function bashResultChunk(command: string, timeoutMs: number, result: ExecResult): ToolChunk {
  const metadata = { exitCode: result.exitCode, timedOut: result.timedOut };
  if (result.timedOut) return ToolChunk.error(`Command timed out after ${timeoutMs}ms: ${command}`, { metadata });
  if (result.aborted) return ToolChunk.error(`Command was interrupted: ${command}`, { metadata });
  if (result.exitCode !== 0) {
    const stdout = result.stdout ? `\nStdout:\n${result.stdout}` : "";
    const stderr = result.stderr ? `\nStderr:\n${result.stderr}` : "";
    return ToolChunk.error(capped(`Command failed: ${command}\n${stdout}${stderr}`), { metadata: { ...metadata } });
  }
  const joined = result.stdout && result.stderr ? `${result.stdout}\n${result.stderr}` : result.stdout + result.stderr;
  return ToolChunk.text(capped(joined), { metadata });
}
