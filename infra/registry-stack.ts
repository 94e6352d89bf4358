import { CfnOutput, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { Rule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { grantFunctionPermissions } from "./function-permissions.js";
import { RegistryApi } from "./registry-api.js";
import { RegistryFunction } from "./registry-function.js";
import { functionConstructId, REGISTRY_FUNCTIONS, type RegistryFunctionName } from "./registry-functions.js";
import { RegistryStorage } from "./registry-storage.js";
import { DEFAULT_SETTINGS, type RegistrySettings } from "./registry-settings.js";

export interface RegistryStackProps extends StackProps {
  readonly settings?: Partial<RegistrySettings>;
  /** Deployment stage (`dev`, `prod`, …): names metrics, alarms and the dashboard apart. */
  readonly stage?: string;
}

/**
 * The whole registry on AWS: HTTP API → the Lambda functions of `REGISTRY_FUNCTIONS` →
 * S3 archives + DynamoDB entries, with a generated write token in Secrets Manager.
 */
export class RegistryStack extends Stack {
  readonly storage: RegistryStorage;
  readonly api: RegistryApi;
  /** Each function of `REGISTRY_FUNCTIONS` by name. */
  readonly functions: Record<RegistryFunctionName, NodejsFunction>;

  constructor(scope: Construct, id: string, props: RegistryStackProps = {}) {
    super(scope, id, props);
    const settings: RegistrySettings = { ...DEFAULT_SETTINGS, ...props.settings };
    const logRetention = retentionDays(settings.logRetentionDays);

    this.storage = new RegistryStorage(this, "Storage", {
      bucketName: settings.bucketName,
      tableName: settings.tableName,
      allowedOrigins: settings.allowedOrigins,
      noncurrentVersionDays: settings.noncurrentVersionDays,
      accessLogDays: settings.logRetentionDays,
    });
    const { bucket, table } = this.storage;

    const tokenSecret = new Secret(this, "WriteToken", {
      description: "Bearer token for the Agent Tools registry's write routes (upload, update, delete).",
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const shared = { TABLE_NAME: table.tableName, BUCKET_NAME: bucket.bucketName, ARCHIVE_DELIVERY: "redirect" };
    const functions = {} as Record<RegistryFunctionName, NodejsFunction>;
    for (const definition of REGISTRY_FUNCTIONS) {
      const environment = {
        ...shared,
        ...(definition.permissions.readsTokenSecret ? { TOKEN_SECRET_ARN: tokenSecret.secretArn } : {}),
        ...definition.environment?.(settings),
      };
      const { function: fn } = new RegistryFunction(this, functionConstructId(definition.name), {
        definition,
        environment,
        reservedConcurrency: definition.reservedConcurrency?.(settings),
        logRetention,
      });
      grantFunctionPermissions(fn, definition.permissions, { table, bucket, tokenSecret });
      if (definition.schedule) {
        new Rule(this, `${functionConstructId(definition.name)}Schedule`, { schedule: definition.schedule, targets: [new LambdaFunction(fn)] });
      }
      functions[definition.name] = fn;
    }
    this.functions = functions;

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
}

function retentionDays(days: number): RetentionDays {
  const known = Object.values(RetentionDays).filter((value): value is RetentionDays => typeof value === "number");
  if (!known.includes(days as RetentionDays)) {
    throw new Error(`logRetentionDays must be one of CloudWatch's retention values (${known.join(", ")}), got ${days}`);
  }
  return days as RetentionDays;
}
