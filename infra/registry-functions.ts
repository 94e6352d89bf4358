import { Duration } from "aws-cdk-lib";
import { HttpMethod } from "aws-cdk-lib/aws-apigatewayv2";
import { Schedule } from "aws-cdk-lib/aws-events";
import { ARCHIVES_PREFIX } from "../functions/storage/archive-store.js";
import { SEARCH_INDEX_PREFIX } from "../functions/storage/index-snapshot-store.js";
import { SDK_PACKAGE_PREFIX } from "../functions/storage/sdk-package-store.js";
import { UPLOADS_PREFIX } from "../functions/storage/upload-keys.js";
import type { FunctionPermissions } from "./function-permissions.js";
import type { RegistrySettings } from "./registry-settings.js";

/** An HTTP API route a function serves. */
export interface ApiRoute {
  readonly path: string;
  readonly methods: readonly HttpMethod[];
  /**
   * It answers 401 without a bearer token: CloudFront must pass `Authorization` on to it, and never
   * cache its GETs (infra/registry-distribution.ts); test/infra/authenticated-routes.test.ts checks the flag.
   */
  readonly authenticated?: true;
}

/**
 * One Lambda function of the registry. The stack, its alarms and dashboard, the bundle benchmark
 * and the infra tests all iterate over `REGISTRY_FUNCTIONS`, so adding a function is one entry
 * here plus its entry point `functions/lambda/<name>.ts`.
 */
export interface RegistryFunctionDefinition {
  /** Entry point `functions/lambda/<name>.ts`; capitalised, the construct id (`Upload`, `Fetch`, …). */
  readonly name: string;
  /** What it does, shown in the Lambda console. */
  readonly description: string;
  /** Memory buys CPU on Lambda: unzipping and hashing bundles needs it, waiting on I/O does not. */
  readonly memorySize: number;
  /** At most 29 s for functions behind the API (API Gateway gives up after 30 s). */
  readonly timeout: Duration;
  /** The p99 duration alarm fires above this (well under `timeout`, so it warns before requests fail). */
  readonly p99DurationAlarm: Duration;
  /** Exactly the AWS actions its code uses (see `function-permissions.ts`). */
  readonly permissions: FunctionPermissions;
  /** HTTP API routes it serves; `"default"` makes it the catch-all (unknown paths get its JSON 404). */
  readonly routes?: readonly ApiRoute[] | "default";
  /** An EventBridge schedule that invokes it (sweepers, index builders). */
  readonly schedule?: Schedule;
  /** Environment beyond what every function gets (table, bucket, origin settings). */
  readonly environment?: (settings: RegistrySettings) => Record<string, string>;
  /** Concurrent executions reserved for it (and capped at); none means the account's shared pool. */
  readonly reservedConcurrency?: (settings: RegistrySettings) => number | undefined;
  /** Requests per second and burst of each of its routes; without, the API's default (`throttleRateLimit`). */
  readonly throttle?: (settings: RegistrySettings) => RouteThrottle;
}

export interface RouteThrottle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

const READ_TABLE = ["dynamodb:GetItem", "dynamodb:Query"];

const DEFINITIONS = [
  {
    name: "upload",
    description: "Agent Tools registry: publish, update and delete tools",
    memorySize: 1024,
    timeout: Duration.seconds(29),
    p99DurationAlarm: Duration.seconds(10),
    permissions: {
      // Deleting a tool removes all its version items in BatchWriteItem deletes; the doctor scans every key.
      table: [...READ_TABLE, "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem", "dynamodb:Scan"],
      objects: {
        [ARCHIVES_PREFIX]: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
        [UPLOADS_PREFIX]: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
      },
      listBucket: true,
      readsTokenSecret: true,
      readsCursorSecret: true,
      embeds: true,
    },
    // Every write and admin read needs a token; anyone may read a publisher's signing keys.
    routes: [
      { path: "/tools/upload", methods: [HttpMethod.POST], authenticated: true },
      { path: "/tools/uploads", methods: [HttpMethod.POST], authenticated: true },
      { path: "/tools/uploads/{uploadId}/complete", methods: [HttpMethod.POST], authenticated: true },
      { path: "/tools/{id}", methods: [HttpMethod.PUT, HttpMethod.DELETE], authenticated: true },
      { path: "/tools/{id}/versions/{version}", methods: [HttpMethod.PATCH, HttpMethod.DELETE], authenticated: true },
      { path: "/registry/doctor", methods: [HttpMethod.POST], authenticated: true },
      // Publisher trust (docs/design/publisher-trust.md): admin routes and the audit log live beside the writes.
      { path: "/tokens", methods: [HttpMethod.POST, HttpMethod.GET], authenticated: true },
      { path: "/tokens/{name}", methods: [HttpMethod.DELETE], authenticated: true },
      { path: "/audit", methods: [HttpMethod.GET], authenticated: true },
      { path: "/publishers/{name}/keys", methods: [HttpMethod.PUT], authenticated: true },
      { path: "/publishers/{name}/keys", methods: [HttpMethod.GET] },
      { path: "/publishers/{name}/keys/{keyId}", methods: [HttpMethod.DELETE], authenticated: true },
    ],
    environment: (settings) => ({
      MAX_BUNDLE_BYTES: String(settings.maxBundleBytes),
      PUBLISHER_WRITES_PER_MINUTE: String(settings.publisherWritesPerMinute),
      AUDIT_RETENTION_DAYS: String(settings.auditRetentionDays),
    }),
    // Writes are rare and heavy (1 GB, whole bundles in memory): a flood of them must not take the
    // account's concurrency from the readers.
    reservedConcurrency: (settings) => settings.uploadReservedConcurrency,
    throttle: (settings) => ({ rateLimit: settings.uploadRateLimit, burstLimit: settings.uploadBurstLimit }),
  },
  {
    name: "fetch",
    description: "Agent Tools registry: entries, versions, listings, archives, health",
    memorySize: 512,
    timeout: Duration.seconds(10),
    p99DurationAlarm: Duration.seconds(2),
    // The web catalogue's search (`/?q=`) starts from the index snapshot, as the search function does.
    permissions: {
      table: READ_TABLE,
      // The SDK tarball too: without CloudFront, `/sdk/<file>` is served by this function.
      objects: { [ARCHIVES_PREFIX]: ["s3:GetObject"], [SEARCH_INDEX_PREFIX]: ["s3:GetObject"], [SDK_PACKAGE_PREFIX]: ["s3:GetObject"] },
      listBucket: false,
      readsTokenSecret: false,
      readsCursorSecret: true,
      embeds: true,
    },
    routes: "default",
  },
  {
    name: "search",
    description: "Agent Tools registry: ranked search over the catalogue",
    // One full vCPU (Lambda gives CPU in proportion to memory; 1,769 MB is one core): a cold
    // instance's gunzip and open of the index snapshot and a term's first scoring are CPU-bound,
    // and docs/search.md measures them on one core. At 100,000 tools the process peaks near 500 MB.
    memorySize: 1769,
    timeout: Duration.seconds(10),
    p99DurationAlarm: Duration.seconds(3),
    // A cold instance reads the index snapshot, then the revision log and the tools it names.
    permissions: {
      table: READ_TABLE,
      objects: { [SEARCH_INDEX_PREFIX]: ["s3:GetObject"] },
      listBucket: false,
      readsTokenSecret: false,
      readsCursorSecret: true,
      embeds: true,
    },
    routes: [{ path: "/tools/search", methods: [HttpMethod.GET] }],
    throttle: (settings) => ({ rateLimit: settings.searchRateLimit, burstLimit: settings.searchBurstLimit }),
  },
  {
    name: "indexer",
    description: "Agent Tools registry: rebuilds the search index and listing snapshots when the catalog has changed (every minute)",
    // It holds the whole index and serialises and gzips it: at 100,000 tools about three copies of a ~100 MB file.
    memorySize: 1024,
    timeout: Duration.minutes(5),
    p99DurationAlarm: Duration.minutes(2),
    permissions: {
      // Reads the revision log and the changed tools (or all latest entries, after a gap in the log); lists and drops old snapshots.
      table: READ_TABLE,
      objects: { [SEARCH_INDEX_PREFIX]: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"] },
      listBucket: true,
      readsTokenSecret: false,
      readsCursorSecret: false,
      // The revision item names the snapshots it stores, so readers ask S3 only for one that exists.
      recordsSnapshots: true,
      // Vectors come with the entries it reads; it never calls the model.
      embeds: false,
    },
    // Kept warm, a run with nothing new costs one GetItem and one GetObject; after writes the
    // snapshot is at most a minute behind, and a cold search instance applies the rest from the log.
    schedule: Schedule.rate(Duration.minutes(1)),
  },
  {
    name: "sweeper",
    description:
      "Agent Tools registry: repair of what changed since the last run, every 10 minutes, and a full pass that resumes across runs",
    memorySize: 512,
    timeout: Duration.minutes(5),
    // A run stops taking work a minute before its timeout: only a run that overshoots that (a page too large) alarms.
    p99DurationAlarm: Duration.seconds(270),
    permissions: {
      // Reads the audit log since its checkpoint and scans the keys a segment page at a time (BatchGetItem: pointers of
      // listed tools), finishes publishes (pointer, revision, marker) and deletes, removes orphans, stores its progress.
      table: [
        ...READ_TABLE,
        "dynamodb:BatchGetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
        "dynamodb:BatchWriteItem",
        "dynamodb:Scan",
      ],
      objects: { [ARCHIVES_PREFIX]: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"] },
      listBucket: true,
      readsTokenSecret: false,
      readsCursorSecret: false,
      embeds: false,
    },
    // Every 10 minutes: at 100 publishes/s a run's window (60,000 events) fits its 4 minutes (docs/deployment.md#capacity).
    schedule: Schedule.rate(Duration.minutes(10)),
  },
] as const satisfies readonly RegistryFunctionDefinition[];

export type RegistryFunctionName = (typeof DEFINITIONS)[number]["name"];

/** Every function of the registry, in the order of the dashboard's rows. */
export const REGISTRY_FUNCTIONS: readonly (RegistryFunctionDefinition & { readonly name: RegistryFunctionName })[] = DEFINITIONS;

/** Construct id of a function (`upload` → `Upload`): logical ids, alarm and dashboard names start with it. */
export function functionConstructId(name: string): string {
  return `${name[0]?.toUpperCase() ?? ""}${name.slice(1)}`;
}
