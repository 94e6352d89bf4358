import type { RegistryErrorCode } from "../error-codes.js";
import { AgentToolsError, asSentence } from "../errors.js";

/** The registry answered with an error body (`{"error", "detail"}`); both are kept verbatim. */
export class RegistryError extends AgentToolsError<RegistryErrorCode> {
  readonly status: number;
  readonly error: string;
  readonly detail: string;

  constructor(
    status: number,
    error: string,
    detail: string,
    options: { toolId?: string; code?: RegistryErrorCode; message?: string } = {},
  ) {
    const where = options.toolId === undefined ? "" : ` for tool "${options.toolId}"`;
    super(
      options.code ?? "REGISTRY_ERROR",
      options.message ?? `Registry answered ${status}${where}: ${error}${detail ? ` (${detail})` : ""}`,
      { toolId: options.toolId },
    );
    this.status = status;
    this.error = error;
    this.detail = detail;
  }
}

/** 404 for a tool id or version: check the id (`GET /tools` lists them) or publish the tool first. */
export class ToolNotFoundError extends RegistryError {
  constructor(toolId: string, error: string, detail: string) {
    super(404, error, detail, {
      toolId,
      code: "TOOL_NOT_FOUND",
      message: `Tool "${toolId}" is not in the registry: ${asSentence(detail || error)} Check the id and version, or upload the tool first.`,
    });
  }
}

/**
 * The registry answered an entry that is not well formed (a tool id, version or archive digest of
 * the wrong shape, or another tool's entry): nothing of it was written or read on disk.
 */
export class RegistryEntryError extends AgentToolsError<RegistryErrorCode> {
  readonly problems: readonly string[];

  constructor(toolId: string, registryUrl: string, problems: readonly string[]) {
    super(
      "REGISTRY_ENTRY_INVALID",
      `The registry at ${registryUrl} answered a malformed entry for tool "${toolId}": ${problems.join("; ")}. Nothing of it was used; a registry that sends this cannot be trusted with the tool, so check toolsDbUrl.`,
      { toolId },
    );
    this.problems = problems;
  }
}

/** The registry could not be reached, timed out, or answered with a gateway error. */
export class RegistryUnavailableError extends AgentToolsError<RegistryErrorCode> {
  readonly url: string;
  /** What happened, e.g. "ECONNREFUSED" or "no answer within 30000 ms". */
  readonly reason: string;

  constructor(url: string, reason: string, options: { toolId?: string; cause?: unknown } = {}) {
    super(
      "REGISTRY_UNAVAILABLE",
      `Registry unavailable at ${url}: ${asSentence(reason)} Check that the registry is running and toolsDbUrl is right.`,
      options,
    );
    this.url = url;
    this.reason = reason;
  }
}

/**
 * `error` and `detail` of a registry error answer. API Gateway answers its own errors (413 for a
 * body over its limit, 429 when throttled) as `{"message": …}`, which becomes the `error`; a body
 * that is not JSON becomes the detail.
 */
export function errorBody(text: string, status: number): { error: string; detail: string } {
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown };
    return { error: String(body.error ?? body.message ?? `HTTP ${status}`), detail: body.detail === undefined ? "" : String(body.detail) };
  } catch {
    return { error: `HTTP ${status}`, detail: text.slice(0, 500) };
  }
}

/** Node's fetch hides the socket error in `cause` ("fetch failed" alone says nothing). */
export function describeFetchFailure(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
