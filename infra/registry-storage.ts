import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { AttributeType, Billing, ProjectionType, TableV2, type Attribute } from "aws-cdk-lib/aws-dynamodb";
import { BlockPublicAccess, Bucket, BucketEncryption, HttpMethods, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { SEARCH_INDEX_PREFIX } from "../functions/storage/index-snapshot-store.js";
import { createTableInput, EXPIRES_AT_ATTRIBUTE } from "../functions/storage/table-schema.js";
import { UPLOADS_PREFIX } from "../functions/storage/upload-keys.js";

export interface RegistryStorageProps {
  readonly bucketName?: string;
  readonly tableName?: string;
  /** Browser origins that may GET archives and PUT large bundles through presigned URLs. */
  readonly allowedOrigins: readonly string[];
  /** Days replaced or deleted object versions stay restorable; matches the table's 35-day PITR window by default. */
  readonly noncurrentVersionDays: number;
  /** Days to keep the bucket's server access logs. */
  readonly accessLogDays: number;
}

/**
 * Where the registry keeps its state: the archive bucket and the entry table. Both are retained
 * when the stack is deleted, and protected against deletion, because they hold every published tool.
 */
export class RegistryStorage extends Construct {
  readonly bucket: Bucket;
  readonly accessLogs: Bucket;
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: RegistryStorageProps) {
    super(scope, id);
    const privateBucket = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    } as const;
    // S3 server access logs must go to a bucket with S3-managed keys and the bucket owner's ACL-less ownership.
    this.accessLogs = new Bucket(this, "AccessLogs", {
      ...privateBucket,
      encryption: BucketEncryption.S3_MANAGED,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: "expire-access-logs", expiration: Duration.days(props.accessLogDays) }],
    });
    this.bucket = new Bucket(this, "Archives", {
      ...privateBucket,
      bucketName: props.bucketName,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      // Versioning keeps a deleted archive restorable for as long as the table's point-in-time
      // recovery can bring back an entry that names it.
      versioned: true,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: "archives-bucket/",
      lifecycleRules: [
        // Large bundles land here before `/complete`; anything never completed is garbage, every version of it.
        {
          id: "expire-incoming-uploads",
          prefix: UPLOADS_PREFIX,
          expiration: Duration.days(1),
          noncurrentVersionExpiration: Duration.days(1),
        },
        { id: "abort-incomplete-multipart", abortIncompleteMultipartUploadAfter: Duration.days(1) },
        // Index snapshots are rebuilt from the table at will; a replaced one (every minute after writes) is not worth keeping.
        {
          id: "expire-replaced-index-snapshots",
          prefix: SEARCH_INDEX_PREFIX,
          noncurrentVersionExpiration: Duration.days(1),
          expiredObjectDeleteMarker: true,
        },
        {
          id: "expire-noncurrent-versions",
          noncurrentVersionExpiration: Duration.days(props.noncurrentVersionDays),
          expiredObjectDeleteMarker: true,
        },
      ],
      cors:
        props.allowedOrigins.length > 0
          ? [
              {
                allowedOrigins: [...props.allowedOrigins],
                allowedMethods: [HttpMethods.GET, HttpMethods.HEAD, HttpMethods.PUT],
                allowedHeaders: ["content-type", "content-length"],
                exposedHeaders: ["etag", "content-length"],
                maxAge: 3600,
              },
            ]
          : undefined,
    });
    this.table = new TableV2(this, "Entries", {
      tableName: props.tableName,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // Audit events expire after the stage's retention (functions/storage/audit-store.ts).
      timeToLiveAttribute: EXPIRES_AT_ATTRIBUTE,
      ...tableKeysFromSchema(),
    });
  }
}

/** The table's keys and indexes, derived from the schema the registry itself creates locally. */
function tableKeysFromSchema() {
  const input = createTableInput("schema");
  const attribute = (name: string): Attribute => {
    const type = input.AttributeDefinitions?.find((definition) => definition.AttributeName === name)?.AttributeType;
    if (type !== "S" && type !== "N" && type !== "B") throw new Error(`table schema: attribute ${name} has no key type`);
    return { name, type: { S: AttributeType.STRING, N: AttributeType.NUMBER, B: AttributeType.BINARY }[type] };
  };
  const keys = (schema: { AttributeName?: string; KeyType?: string }[] | undefined) => {
    const partition = schema?.find((key) => key.KeyType === "HASH")?.AttributeName;
    const sort = schema?.find((key) => key.KeyType === "RANGE")?.AttributeName;
    if (!partition) throw new Error("table schema: a key schema has no partition key");
    return { partitionKey: attribute(partition), ...(sort ? { sortKey: attribute(sort) } : {}) };
  };
  return {
    ...keys(input.KeySchema),
    globalSecondaryIndexes: (input.GlobalSecondaryIndexes ?? []).map((index) => ({
      indexName: index.IndexName ?? "",
      ...keys(index.KeySchema),
      projectionType: index.Projection?.ProjectionType === "KEYS_ONLY" ? ProjectionType.KEYS_ONLY : ProjectionType.ALL,
    })),
  };
}

/** The names of the table's global secondary indexes. */
export function tableIndexNames(): string[] {
  return (createTableInput("schema").GlobalSecondaryIndexes ?? []).map((index) => index.IndexName ?? "");
}
