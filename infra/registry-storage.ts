import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { AttributeType, Billing, ProjectionType, TableV2, type Attribute } from "aws-cdk-lib/aws-dynamodb";
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from "aws-cdk-lib/aws-s3";
import { Construct } from "constructs";
import { createTableInput } from "../functions/storage/table-schema.js";
import { UPLOADS_PREFIX } from "../functions/uploads/upload-keys.js";

export interface RegistryStorageProps {
  readonly bucketName?: string;
  readonly tableName?: string;
}

/**
 * Where the registry keeps its state: the archive bucket and the entry table. Both are retained
 * when the stack is deleted, because they hold every published tool.
 */
export class RegistryStorage extends Construct {
  readonly bucket: Bucket;
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: RegistryStorageProps) {
    super(scope, id);
    this.bucket = new Bucket(this, "Archives", {
      bucketName: props.bucketName,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      versioned: false,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        // Large bundles land here before `/complete`; anything never completed is garbage.
        { id: "expire-incoming-uploads", prefix: UPLOADS_PREFIX, expiration: Duration.days(1) },
        { id: "abort-incomplete-multipart", abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    this.table = new TableV2(this, "Entries", {
      tableName: props.tableName,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
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
