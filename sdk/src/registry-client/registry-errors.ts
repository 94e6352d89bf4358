import { ERROR_CODES, type RegistryErrorCode } from "../error-codes.js";
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
      message:
        `Tool "${toolId}" is not in the registry: ${asSentence(detail || error)} ` + `Check the id and version, or upload the tool first.`,
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
      `The registry at ${registryUrl} answered a malformed entry for tool "${toolId}": ${problems.join("; ")}. ` +
        `Nothing of it was used; a registry that sends this cannot be trusted with the tool, so check toolsDbUrl.`,
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
 * `error`, `detail` and `code` of a registry error answer. API Gateway answers its own errors (413
 * for a body over its limit, 429 when throttled) as `{"message": …}`, which becomes the `error`; a
 * body that is not JSON becomes the detail. `code` is the registry's own where it names one (a 409
 * for an existing version, a 422 for spec.json or an archive), else what the status means.
 */
export function errorBody(text: string, status: number): { error: string; detail: string; code: RegistryErrorCode } {
  try {
    const body = JSON.parse(text) as { error?: unknown; detail?: unknown; message?: unknown; code?: unknown };
    return {
      error: String(body.error ?? body.message ?? `HTTP ${status}`),
      detail: body.detail === undefined ? "" : String(body.detail),
      code: isRegistryCode(body.code) ? body.code : codeForStatus(status),
    };
  } catch {
    return { error: `HTTP ${status}`, detail: text.slice(0, 500), code: codeForStatus(status) };
  }
}

/** The registry's error answer as a typed error: a 404 about a tool is a `ToolNotFoundError`. */
export function registryAnswerError(status: number, text: string, toolId: string | undefined): RegistryError {
  const { error, detail, code } = errorBody(text, status);
  if (status === 404 && toolId !== undefined) return new ToolNotFoundError(toolId, error, detail);
  return new RegistryError(status, error, detail, { ...(toolId === undefined ? {} : { toolId }), code });
}

/** What a status says when the registry (or a gateway in front) names no code. */
const STATUS_CODES: Partial<Record<number, RegistryErrorCode>> = {
  401: "REGISTRY_UNAUTHORIZED",
  403: "REGISTRY_FORBIDDEN",
  409: "REGISTRY_CONFLICT",
  413: "REGISTRY_TOO_LARGE",
  429: "REGISTRY_RATE_LIMITED",
};

function codeForStatus(status: number): RegistryErrorCode {
  return STATUS_CODES[status] ?? "REGISTRY_ERROR";
}

/** Codes a registry may name in a body: the registry area's, except those only the SDK itself raises. */
function isRegistryCode(value: unknown): value is RegistryErrorCode {
  return (
    typeof value === "string" &&
    Object.hasOwn(ERROR_CODES.registry, value) &&
    value !== "REGISTRY_UNAVAILABLE" &&
    value !== "REGISTRY_URL_INVALID"
  );
}

/** Node's fetch hides the socket error in `cause` ("fetch failed" alone says nothing). */
export function describeFetchFailure(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
