import type { AgentToolsErrorCode } from "@agent-tools/sdk";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * A client-facing failure. Serialised as `{"error": error, "detail": detail}` with `status`, plus
 * `"code"` where the status alone does not say what happened (a 409 for an existing version, a 422
 * for spec.json or for an archive): one of the SDK's typed codes (`sdk/src/error-codes.ts`, "registry").
 * `error` keeps the Python registry's string where one exists (clients match on it, docs/design/compatibility.md);
 * `detail` says exactly what is wrong and how to fix it.
 */
export class HttpProblem extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly error: string,
    readonly detail: string,
    /** Sent with the error (e.g. `Retry-After` on a 429). */
    readonly headers: Readonly<Record<string, string>> = {},
    readonly code?: RegistryAnswerCode,
  ) {
    super(`${error}: ${detail}`);
    this.name = "HttpProblem";
  }

  toJSON(): { error: string; detail: string; code?: RegistryAnswerCode } {
    return { error: this.error, detail: this.detail, ...(this.code === undefined ? {} : { code: this.code }) };
  }
}

/** The codes the registry names itself in error bodies (the SDK maps other answers by status); each is in the SDK's catalogue. */
export type RegistryAnswerCode = Extract<AgentToolsErrorCode, "VERSION_EXISTS" | "INVALID_SPEC" | "INVALID_ARCHIVE" | "INVALID_BUNDLE">;
