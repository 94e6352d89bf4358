import { Stack, type CfnResource } from "aws-cdk-lib";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { TableV2 } from "aws-cdk-lib/aws-dynamodb";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { Bucket } from "aws-cdk-lib/aws-s3";
import type { ISecret } from "aws-cdk-lib/aws-secretsmanager";
import { REVISION_KEY } from "../functions/storage/table-schema.js";
import { acknowledgeFinding } from "./acknowledge-finding.js";

/**
 * Exactly the actions a function's code uses, written out instead of `grantRead`/`grantReadWrite`
 * (which add `s3:List*`, `s3:GetBucket*`, `dynamodb:Scan`, `DescribeTable`, … that no route needs).
 * - `s3:GetObject` also covers HeadObject; `s3:ListBucket` makes S3 answer 404 (not 403) for a
 *   missing key, which the upload routes rely on to tell "not there" from "denied".
 * - Presigned URLs are signed with the function's own role, so fetch needs `s3:GetObject` on
 *   archives for the archive redirect, and upload needs `s3:PutObject` on `uploads/` for large uploads.
 */
export interface FunctionPermissions {
  /** Actions on the entry table and its indexes. */
  readonly table: readonly string[];
  /** Object actions in the archive bucket, by key prefix (`archives/`, `uploads/`, …). */
  readonly objects: Readonly<Record<string, readonly string[]>>;
  readonly listBucket: boolean;
  /** Reads the generated write-token secret (and gets `TOKEN_SECRET_ARN`). */
  readonly readsTokenSecret: boolean;
  /** Issues or checks page cursors: reads the generated cursor secret (and gets `CURSOR_SECRET_ARN`). */
  readonly readsCursorSecret: boolean;
  /**
   * Names the snapshots it stores in the catalog revision item (`CatalogRevision.recordSnapshot`):
   * `dynamodb:UpdateItem` on that one item's partition only (`dynamodb:LeadingKeys`).
   */
  readonly recordsSnapshots?: true;
  /**
   * Embeds texts when hybrid search is on (`searchEmbeddings`): tools at publish and edit, queries
   * at search, the web catalogue's search included. Gets `bedrock:InvokeModel` on that one model.
   */
  readonly embeds: boolean;
}

export interface RegistryResources {
  readonly table: TableV2;
  readonly bucket: Bucket;
  readonly tokenSecret: ISecret;
  readonly cursorSecret: ISecret;
  /** The Bedrock foundation model the embedding functions invoke; undefined when hybrid search is off. */
  readonly embeddingModelArn: string | undefined;
}

export function grantFunctionPermissions(fn: IFunction, permissions: FunctionPermissions, resources: RegistryResources): void {
  const { table, bucket, tokenSecret, cursorSecret, embeddingModelArn } = resources;
  const add = (actions: readonly string[], ...resourceArns: string[]) => {
    if (actions.length > 0) fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: resourceArns }));
  };
  add(permissions.table, table.tableArn, `${table.tableArn}/index/*`);
  for (const [prefix, actions] of Object.entries(permissions.objects)) add(actions, bucket.arnForObjects(`${prefix}*`));
  if (permissions.recordsSnapshots) {
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ["dynamodb:UpdateItem"],
        resources: [table.tableArn],
        conditions: { "ForAllValues:StringEquals": { "dynamodb:LeadingKeys": [REVISION_KEY.tool_id] } },
      }),
    );
  }
  if (permissions.listBucket) add(["s3:ListBucket"], bucket.bucketArn);
  if (permissions.readsTokenSecret) add(["secretsmanager:GetSecretValue"], tokenSecret.secretArn);
  if (permissions.readsCursorSecret) add(["secretsmanager:GetSecretValue"], cursorSecret.secretArn);
  if (permissions.embeds && embeddingModelArn !== undefined) add(["bedrock:InvokeModel"], embeddingModelArn);

  // The only wildcards are key prefixes, which the code's keys need (cdk-nag names them by logical id).
  const arnOf = (resource: TableV2 | Bucket) =>
    `<${Stack.of(resource).resolve((resource.node.defaultChild as CfnResource).logicalId)}.Arn>`;
  const policy = fn.role?.node.tryFindChild("DefaultPolicy");
  if (!policy) return;
  if (permissions.table.length > 0) {
    acknowledgeFinding(
      policy,
      `AwsSolutions-IAM5[Resource::${arnOf(table)}/index/*]`,
      "Queries go to the table's global secondary indexes (latest versions, " +
        "archive references); `index/*` names exactly those of this table.",
    );
  }
  for (const prefix of Object.keys(permissions.objects)) {
    acknowledgeFinding(
      policy,
      `AwsSolutions-IAM5[Resource::${arnOf(bucket)}/${prefix}*]`,
      `Object keys under ${prefix} are chosen at run time (content hashes, upload ids, index ` +
        `snapshot revisions, SDK tarball names); the grant is limited to that prefix of this bucket.`,
    );
  }
}
