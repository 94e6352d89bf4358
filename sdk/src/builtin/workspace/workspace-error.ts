import type { WorkspaceErrorCode } from "../../error-codes.js";
import { AgentToolsError } from "../../errors.js";

/** A workspace that cannot start, is used outside its lifetime, or whose engine or files fail (docs/workspaces.md). */
export class WorkspaceError extends AgentToolsError<WorkspaceErrorCode> {
  /** The HTTP status of a Docker Engine answer (`DOCKER_ENGINE_ERROR`); undefined otherwise. */
  readonly status: number | undefined;

  constructor(code: WorkspaceErrorCode, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(code, message, { cause: options.cause });
    this.status = options.status;
  }
}
