import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { TableV2 } from "aws-cdk-lib/aws-dynamodb";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { Bucket } from "aws-cdk-lib/aws-s3";
import type { ISecret } from "aws-cdk-lib/aws-secretsmanager";
import { ArchiveStore } from "../functions/storage/archive-store.js";
import { UPLOADS_PREFIX } from "../functions/uploads/upload-keys.js";
import type { RegistryFunctionName } from "./lambda-bundling.js";

/**
 * Exactly the actions each function's routes use, written out instead of `grantRead`/`grantReadWrite`
 * (which add `s3:List*`, `s3:GetBucket*`, `dynamodb:Scan`, `DescribeTable`, … that no route needs).
 * - `s3:GetObject` also covers HeadObject; `s3:ListBucket` makes S3 answer 404 (not 403) for a
 *   missing key, which the upload routes rely on to tell "not there" from "denied".
 * - Presigned URLs are signed with the function's own role, so fetch needs `s3:GetObject` on
 *   archives for the archive redirect, and upload needs `s3:PutObject` on `uploads/` for large uploads.
 */
export interface FunctionPermissions {
  readonly table: readonly string[];
  readonly archives: readonly string[];
  readonly uploads: readonly string[];
  readonly listBucket: boolean;
  readonly readsTokenSecret: boolean;
}

const READ_TABLE = ["dynamodb:GetItem", "dynamodb:Query"];

export const FUNCTION_PERMISSIONS: Record<RegistryFunctionName, FunctionPermissions> = {
  upload: {
    // Deleting a tool removes all its version items in BatchWriteItem deletes.
    table: [...READ_TABLE, "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"],
    archives: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
    uploads: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"],
    listBucket: true,
    readsTokenSecret: true,
  },
  fetch: { table: READ_TABLE, archives: ["s3:GetObject"], uploads: [], listBucket: false, readsTokenSecret: false },
  search: { table: READ_TABLE, archives: [], uploads: [], listBucket: false, readsTokenSecret: false },
};

export interface RegistryResources {
  readonly table: TableV2;
  readonly bucket: Bucket;
  readonly tokenSecret: ISecret;
}

export function grantFunctionPermissions(fn: IFunction, permissions: FunctionPermissions, resources: RegistryResources): void {
  const { table, bucket, tokenSecret } = resources;
  const add = (actions: readonly string[], ...resourceArns: string[]) => {
    if (actions.length > 0) fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources: resourceArns }));
  };
  add(permissions.table, table.tableArn, `${table.tableArn}/index/*`);
  add(permissions.archives, bucket.arnForObjects(ArchiveStore.key("*")));
  add(permissions.uploads, bucket.arnForObjects(`${UPLOADS_PREFIX}*`));
  if (permissions.listBucket) add(["s3:ListBucket"], bucket.bucketArn);
  if (permissions.readsTokenSecret) add(["secretsmanager:GetSecretValue"], tokenSecret.secretArn);
}
