import { AgentToolsError } from "../errors.js";

/** `sandbox: "required"` and the preflight failed: nothing ran. */
export class SandboxUnavailableError extends AgentToolsError {
  readonly reason: string;
  readonly fix: string;

  constructor(what: string, reason: string, fix: string, toolId?: string) {
    super(
      "SANDBOX_UNAVAILABLE",
      `${what} require a sandbox (sandbox: "required"), but ${reason}. To fix: ${fix}.`,
      toolId === undefined ? {} : { toolId },
    );
    this.reason = reason;
    this.fix = fix;
  }
}

/**
 * A sandboxed tool failed because the sandbox withheld something: `capability` names it
 * (`filesystem:/etc/shadow:read`, `network`, `env:AWS_SECRET_ACCESS_KEY`, `limits.processes`, ...),
 * and the message says how to grant or raise it.
 */
export class SandboxDeniedError extends AgentToolsError {
  readonly capability: string;
  /** The tool's own error (Python exception text or stderr), for the details. */
  readonly detail: string;

  constructor(toolId: string, capability: string, detail: string, fix: string, cause?: unknown) {
    super(
      "SANDBOX_DENIED",
      `Tool "${toolId}" was stopped by the sandbox: it lacks the capability ${capability} (${detail.trim().split("\n").pop()?.slice(0, 300) ?? ""}). ${fix}`,
      { toolId, cause },
    );
    this.capability = capability;
    this.detail = detail;
  }
}
