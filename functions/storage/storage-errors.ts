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

/** The code both embedded emulators answer when their disk is full (`local/s3rver-disk-errors.ts`, `local/dynalite-disk-errors.ts`). */
export const STORAGE_FULL_CODE = "InsufficientStorage";
/** How a failed write says the disk is full: errno codes, and LevelDB's message (its IO errors carry strerror's text). */
const FULL_DISK_CODES = new Set(["ENOSPC", "EDQUOT"]);
const FULL_DISK_MESSAGE = /No space left on device|Disk quota exceeded/;

/** Whether a file or LevelDB write failed for want of space (its cause chain included). */
export function isDiskFull(error: unknown): boolean {
  for (let current = error, depth = 0; typeof current === "object" && current !== null && depth < 5; depth++) {
    const failure = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof failure.code === "string" && FULL_DISK_CODES.has(failure.code)) return true;
    if (typeof failure.message === "string" && FULL_DISK_MESSAGE.test(failure.message)) return true;
    current = failure.cause;
  }
  return false;
}

/**
 * The local server's disk is full: an emulator answered `InsufficientStorage` (507), or a file
 * write of this process failed for want of space. Never on AWS (S3 and DynamoDB do not fill up).
 */
export function isStorageFull(error: unknown): boolean {
  return name(error) === STORAGE_FULL_CODE || isDiskFull(error);
}
