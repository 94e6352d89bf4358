import { LocalWorkspaceBackend } from "../../../sdk/src/builtin/workspace/local-workspace-backend.js";
import type { ExecOptions, ExecResult } from "../../../sdk/src/builtin/workspace/workspace-backend.js";

/**
 * The real local backend, keeping the last process's whole stdout and stderr: the tool's result
 * is capped at 30 000 characters, and a canary past the cap still left the sandbox.
 */
export class RecordingBackend extends LocalWorkspaceBackend {
  private last: ExecResult | undefined;

  override async exec(argv: string[], options: ExecOptions): Promise<ExecResult> {
    this.last = await super.exec(argv, options);
    return this.last;
  }

  /** The result of the process run since the last call, if one ran. */
  takeLast(): ExecResult | undefined {
    const last = this.last;
    this.last = undefined;
    return last;
  }
}
