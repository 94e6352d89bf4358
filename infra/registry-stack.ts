import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { FUNCTION_PERMISSIONS, grantFunctionPermissions } from "./function-permissions.js";
import { RegistryApi } from "./registry-api.js";
import { RegistryFunction } from "./registry-function.js";
import { RegistryStorage } from "./registry-storage.js";
import { DEFAULT_SETTINGS, type RegistrySettings } from "./registry-settings.js";

export interface RegistryStackProps extends StackProps {
  readonly settings?: Partial<RegistrySettings>;
}

/** Memory buys CPU on Lambda: upload unzips and hashes whole bundles, the readers mostly wait on I/O. */
const FUNCTION_SIZING = {
  upload: { memorySize: 1024, timeout: Duration.seconds(29) },
  fetch: { memorySize: 512, timeout: Duration.seconds(10) },
  search: { memorySize: 512, timeout: Duration.seconds(10) },
} as const;

/**
 * The whole registry on AWS: HTTP API → three Lambda functions (upload, fetch, search) →
 * S3 archives + DynamoDB entries, with a generated write token in Secrets Manager.
 */
export class RegistryStack extends Stack {
  readonly storage: RegistryStorage;
  readonly api: RegistryApi;

  constructor(scope: Construct, id: string, props: RegistryStackProps = {}) {
    super(scope, id, props);
    const settings: RegistrySettings = { ...DEFAULT_SETTINGS, ...props.settings };
    const logRetention = retentionDays(settings.logRetentionDays);

    this.storage = new RegistryStorage(this, "Storage", { bucketName: settings.bucketName, tableName: settings.tableName });
    const { bucket, table } = this.storage;

    const tokenSecret = new Secret(this, "WriteToken", {
      description: "Bearer token for the Agent Tools registry's write routes (upload, update, delete).",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const shared = { TABLE_NAME: table.tableName, BUCKET_NAME: bucket.bucketName, ARCHIVE_DELIVERY: "redirect" };
    const environments = {
      upload: { ...shared, TOKEN_SECRET_ARN: tokenSecret.secretArn, MAX_BUNDLE_BYTES: String(settings.maxBundleBytes) },
      fetch: shared,
      search: shared,
    };
    const functions = {
      upload: this.registryFunction("upload", environments.upload, logRetention),
      fetch: this.registryFunction("fetch", environments.fetch, logRetention),
      search: this.registryFunction("search", environments.search, logRetention),
    };
    for (const name of ["upload", "fetch", "search"] as const) {
      grantFunctionPermissions(functions[name], FUNCTION_PERMISSIONS[name], { table, bucket, tokenSecret });
    }

    this.api = new RegistryApi(this, "Api", {
      functions,
      throttle: { rateLimit: settings.throttleRateLimit, burstLimit: settings.throttleBurstLimit },
      allowedOrigins: settings.allowedOrigins,
      logRetention,
    });

    new CfnOutput(this, "ApiUrl", { value: this.api.api.apiEndpoint, description: "Registry base URL (toolsDbUrl for the SDK)" });
    new CfnOutput(this, "BucketName", { value: bucket.bucketName, description: "Archive bucket (retained on stack deletion)" });
    new CfnOutput(this, "TableName", { value: table.tableName, description: "Entry table (retained on stack deletion)" });
    new CfnOutput(this, "TokenSecretArn", { value: tokenSecret.secretArn, description: "Secret holding the write token" });
  }

  private registryFunction(name: "upload" | "fetch" | "search", environment: Record<string, string>, logRetention: RetentionDays) {
    const id = `${name[0]?.toUpperCase()}${name.slice(1)}`;
    return new RegistryFunction(this, id, { name, ...FUNCTION_SIZING[name], environment, logRetention }).function;
  }
}

function retentionDays(days: number): RetentionDays {
  const known = Object.values(RetentionDays).filter((value): value is RetentionDays => typeof value === "number");
  if (!known.includes(days as RetentionDays)) {
    throw new Error(`logRetentionDays must be one of CloudWatch's retention values (${known.join(", ")}), got ${days}`);
  }
  return days as RetentionDays;
}
