import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * A client-facing failure. Serialised as `{"error": error, "detail": detail}` with `status`.
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
  ) {
    super(`${error}: ${detail}`);
    this.name = "HttpProblem";
  }

  toJSON(): { error: string; detail: string } {
    return { error: this.error, detail: this.detail };
  }
}
