/**
 * How AWS SDK failures are told apart. Names and statuses come from the services' error
 * shapes; the emulators answer with the same ones.
 */
interface SdkFailure {
  name?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
}

function status(error: unknown): number | undefined {
  return (error as SdkFailure | undefined)?.$metadata?.httpStatusCode;
}

function name(error: unknown): string | undefined {
  return (error as SdkFailure | undefined)?.name;
}

/** GetObject/HeadObject on a key that holds nothing. */
export function isMissingObject(error: unknown): boolean {
  return name(error) === "NoSuchKey" || name(error) === "NotFound" || status(error) === 404;
}

/** PutObject with `If-None-Match: *` on a key that already holds an object. */
export function isPreconditionFailure(error: unknown): boolean {
  return name(error) === "PreconditionFailed" || status(error) === 412 || name(error) === "ConditionalRequestConflict";
}

/** A DynamoDB write whose ConditionExpression did not hold. */
export function isConditionFailure(error: unknown): boolean {
  return name(error) === "ConditionalCheckFailedException";
}

const UNAVAILABLE_NAMES = new Set([
  "ThrottlingException",
  "Throttling",
  "ProvisionedThroughputExceededException",
  "RequestLimitExceeded",
  "LimitExceededException",
  "SlowDown",
  "ServiceUnavailable",
  "InternalServerError",
  "InternalError",
  "TimeoutError",
  "RequestTimeout",
  "RequestTimeoutException",
]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Storage could not serve the call even after the SDK's retries: throttled, timed out,
 * unreachable or failing server-side. The request itself was fine, so the client gets 503 and
 * `Retry-After`, never a 500.
 */
export function isStorageUnavailable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const failure = error as SdkFailure;
  if (failure.name !== undefined && UNAVAILABLE_NAMES.has(failure.name)) return true;
  if (failure.code !== undefined && NETWORK_CODES.has(failure.code)) return true;
  const httpStatus = status(error);
  if (httpStatus !== undefined && (httpStatus === 429 || httpStatus >= 500)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isStorageUnavailable(cause);
}
