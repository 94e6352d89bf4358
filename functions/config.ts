import { parseSdkPackage, type SdkPackage } from "./sdk-package/sdk-package.js";

/**
 * Registry configuration, read from the environment so the same code runs against the embedded
 * emulators (endpoints + static credentials) and against real AWS (default credential chain).
 */
/** `cdn`: 302 to `PUBLIC_URL/archives/<sha256>`, which CloudFront serves from the bucket (see docs/deployment.md). */
export type ArchiveDelivery = "redirect" | "proxy" | "cdn";

export interface RegistryConfig {
  region: string;
  tableName: string;
  bucketName: string;
  /** Set for emulators or S3-compatible stores; path-style addressing is used then. */
  s3Endpoint?: string;
  dynamodbEndpoint?: string;
  /** Static credentials (emulators); omitted on AWS so the SDK's default chain applies. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Origin used in `tool_source_code_link` instead of the request's own origin. */
  publicUrl?: string;
  /** Peer addresses (reverse proxies) whose `X-Forwarded-Proto`/`-Host` are believed; empty: none. */
  trustedProxies?: string[];
  /**
   * The secret CloudFront sends in `x-origin-verify` (`ORIGIN_VERIFY_SECRET`, set by the stack): a
   * request carrying it came through the distribution, so its `CloudFront-Viewer-Address` is the client's.
   */
  originVerifySecret?: string;
  /** `redirect`: 302 to a presigned S3 URL; `proxy`: stream the bytes through the registry; `cdn`: 302 to the distribution. */
  archiveDelivery: ArchiveDelivery;
  presignExpiresSeconds: number;
  maxBundleBytes: number;
  /** Seconds a shared cache (CloudFront) may keep public reads before revalidating them (`EDGE_CACHE_SECONDS`, default 0). */
  edgeCacheSeconds?: number;
  /** How often (at most) a process checks the catalog revision to drop its read cache. */
  cacheRevalidateMs: number;
  /** Attempts per storage call, with backoff (default 4). */
  storageMaxAttempts?: number;
  /** A storage call idle this long fails and is retried (default 10 000 ms). */
  storageTimeoutMs?: number;
  /**
   * Whether S3 honours `If-None-Match: *` on PutObject (real S3 does; s3rver ignores it and
   * overwrites), so an archive is written once in one call; else a HEAD comes first. Default:
   * true without an `S3_ENDPOINT`.
   */
  s3ConditionalWrites?: boolean;
  /**
   * Endpoints of the embedded emulators, which check that a request carries a well-formed SigV4
   * header but never its signature (dynalite, s3rver): their clients skip the signing
   * (`aws-clients.ts`). Set by the local server only, and honoured for loopback endpoints only.
   */
  unsignedEndpoints?: string[];
  /** Writes one publisher token may make per minute (`PUBLISHER_WRITES_PER_MINUTE`, default 60); the admin token is not limited. */
  publisherWritesPerMinute?: number;
  /** Days an audit event is kept before the table's time to live removes it (`AUDIT_RETENTION_DAYS`, default 400). */
  auditRetentionDays?: number;
  /**
   * The secret page cursors are signed with (`CURSOR_KEY`): the local server's is random per data
   * folder (`<data dir>/cursor-key`). On AWS the stack keeps it in Secrets Manager instead
   * (`cursorSecretArn`). See `listing/cursor-secret.ts`.
   */
  cursorKey?: string;
  /** The Secrets Manager secret holding the cursor key (`CURSOR_SECRET_ARN`, set by the stack). */
  cursorSecretArn?: string;
  /** The SDK package the stack packed and stored under `sdk/` (`SDK_PACKAGE`, JSON), served at `/sdk`. */
  sdkPackage?: SdkPackage;
}

type Env = Record<string, string | undefined>;

export const DEFAULT_MAX_BUNDLE_BYTES = 10 * 1024 * 1024;

export function loadConfig(env: Env = process.env): RegistryConfig {
  const onLambda = env.AWS_LAMBDA_FUNCTION_NAME !== undefined;
  const credentials =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY && (env.S3_ENDPOINT || env.DYNAMODB_ENDPOINT)
      ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY }
      : undefined;
  const archiveDelivery = parseDelivery(env.ARCHIVE_DELIVERY, onLambda ? "redirect" : "proxy");
  if (archiveDelivery === "cdn" && !env.PUBLIC_URL)
    throw new Error('ARCHIVE_DELIVERY "cdn" needs PUBLIC_URL, the distribution that serves /archives/');
  return {
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || "us-east-1",
    tableName: env.TABLE_NAME || "agent-tools",
    bucketName: env.BUCKET_NAME || "agent-tools-archives",
    s3Endpoint: env.S3_ENDPOINT || undefined,
    dynamodbEndpoint: env.DYNAMODB_ENDPOINT || undefined,
    credentials,
    publicUrl: env.PUBLIC_URL ? env.PUBLIC_URL.replace(/\/+$/, "") : undefined,
    trustedProxies: addressList(env.TRUSTED_PROXIES),
    originVerifySecret: env.ORIGIN_VERIFY_SECRET || undefined,
    archiveDelivery,
    presignExpiresSeconds: integerAtLeast(1, env.PRESIGN_EXPIRES_SECONDS, 300, "PRESIGN_EXPIRES_SECONDS"),
    maxBundleBytes: integerAtLeast(1, env.MAX_BUNDLE_BYTES, DEFAULT_MAX_BUNDLE_BYTES, "MAX_BUNDLE_BYTES"),
    cacheRevalidateMs: integerAtLeast(0, env.CACHE_REVALIDATE_MS, 1000, "CACHE_REVALIDATE_MS"),
    edgeCacheSeconds: integerAtLeast(0, env.EDGE_CACHE_SECONDS, 0, "EDGE_CACHE_SECONDS"),
    storageMaxAttempts: integerAtLeast(1, env.STORAGE_MAX_ATTEMPTS, 4, "STORAGE_MAX_ATTEMPTS"),
    storageTimeoutMs: integerAtLeast(100, env.STORAGE_TIMEOUT_MS, 10_000, "STORAGE_TIMEOUT_MS"),
    publisherWritesPerMinute: integerAtLeast(1, env.PUBLISHER_WRITES_PER_MINUTE, 60, "PUBLISHER_WRITES_PER_MINUTE"),
    auditRetentionDays: integerAtLeast(1, env.AUDIT_RETENTION_DAYS, 400, "AUDIT_RETENTION_DAYS"),
    s3ConditionalWrites: parseBoolean(env.S3_CONDITIONAL_WRITES, !env.S3_ENDPOINT, "S3_CONDITIONAL_WRITES"),
    cursorKey: env.CURSOR_KEY || undefined,
    cursorSecretArn: env.CURSOR_SECRET_ARN || undefined,
    ...(env.SDK_PACKAGE ? { sdkPackage: parseSdkPackage(env.SDK_PACKAGE) } : {}),
  };
}

/** `TRUSTED_PROXIES=127.0.0.1,::1`: exact peer addresses, comma-separated. */
export function addressList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((address) => address.trim())
    .filter(Boolean);
}

function parseDelivery(value: string | undefined, fallback: ArchiveDelivery): ArchiveDelivery {
  if (value === undefined || value === "") return fallback;
  if (value === "redirect" || value === "proxy" || value === "cdn") return value;
  throw new Error(`ARCHIVE_DELIVERY must be "redirect", "proxy" or "cdn", got "${value}"`);
}

function parseBoolean(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === "") return fallback;
  if (value === "true" || value === "false") return value === "true";
  throw new Error(`${name} must be "true" or "false", got "${value}"`);
}

function integerAtLeast(min: number, value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < min) throw new Error(`${name} must be an integer >= ${min}, got "${value}"`);
  return parsed;
}
