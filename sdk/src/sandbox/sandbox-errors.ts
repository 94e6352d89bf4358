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
      `Tool "${toolId}" was stopped by the sandbox: it lacks the capability ` +
        `${capability} (${detail.trim().split("\n").pop()?.slice(0, 300) ?? ""}). ${fix}`,
      { toolId, cause },
    );
    this.capability = capability;
    this.detail = detail;
  }
}

/**
 * A filesystem capability names a folder no tool is granted, judged on its real path at grant time
 * (docs/sandbox.md#capability-paths): the root, a home folder, /proc, /sys, /dev, a secret
 * location, one of the SDK's own folders. `capability` names the grant; nothing was started.
 */
export class CapabilityPathRefusedError extends AgentToolsError {
  readonly capability: string;

  constructor(toolId: string, capability: string, why: string, fix: string) {
    super("CAPABILITY_PATH_REFUSED", `Tool "${toolId}" may not be granted ${capability}: ${why}. No tool is granted it. ${fix}`, {
      toolId,
    });
    this.capability = capability;
  }
}
