import { CfnOutput, RemovalPolicy, Stack, type StackProps } from "aws-cdk-lib";
import { RetentionDays } from "aws-cdk-lib/aws-logs";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { Rule } from "aws-cdk-lib/aws-events";
import { LambdaFunction } from "aws-cdk-lib/aws-events-targets";
import type { NodejsFunction } from "aws-cdk-lib/aws-lambda-nodejs";
import { acknowledgeFinding } from "./acknowledge-finding.js";
import { grantFunctionPermissions } from "./function-permissions.js";
import { RegistryApi } from "./registry-api.js";
import { RegistryDistribution } from "./registry-distribution.js";
import { RegistryMonitoring } from "./registry-monitoring.js";
import { RegistryFunction } from "./registry-function.js";
import { functionConstructId, REGISTRY_FUNCTIONS, type RegistryFunctionName } from "./registry-functions.js";
import { RegistryStorage, tableIndexNames } from "./registry-storage.js";
import { SdkPackageDeployment } from "./sdk-package-deployment.js";
import { DEFAULT_SETTINGS, type RegistrySettings } from "./registry-settings.js";
import { embeddingSettings } from "./search-embedding.js";

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
  readonly distribution?: RegistryDistribution;
  readonly monitoring?: RegistryMonitoring;
  /** The SDK tarball the stack uploads for `/sdk/<file>`. */
  readonly sdkPackage: SdkPackageDeployment;
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

    const tokenSecret = generatedSecret(this, "WriteToken", {
      description: "Bearer token for the Agent Tools registry's write routes (upload, update, delete).",
      length: 48,
      whyNotRotated:
        "The write token is handed to publishers by hand; rotating it on a schedule would " +
        "lock them out. Rotate with `aws secretsmanager put-secret-value` (docs/deployment.md).",
    });
    // Signs page cursors (functions/listing/page-cursor.ts): random per deployment, known to no client.
    const cursorSecret = generatedSecret(this, "CursorKey", {
      description: "Key the Agent Tools registry signs its page cursors with (no client needs it).",
      length: 64,
      whyNotRotated:
        "Rotating the cursor key only makes outstanding page cursors invalid (clients " +
        "start the listing over); nothing depends on rotating it on a schedule.",
    });

    const shared = { TABLE_NAME: table.tableName, BUCKET_NAME: bucket.bucketName, ARCHIVE_DELIVERY: "redirect" };
    const embedding = embeddingSettings(this, settings);
    const functions = {} as Record<RegistryFunctionName, NodejsFunction>;
    for (const definition of REGISTRY_FUNCTIONS) {
      const environment = {
        ...shared,
        ...(definition.permissions.readsTokenSecret ? { TOKEN_SECRET_ARN: tokenSecret.secretArn } : {}),
        ...(definition.permissions.readsCursorSecret ? { CURSOR_SECRET_ARN: cursorSecret.secretArn } : {}),
        ...definition.environment?.(settings),
        ...(definition.permissions.embeds ? embedding.environment : {}),
      };
      const { function: fn } = new RegistryFunction(this, functionConstructId(definition.name), {
        definition,
        environment,
        reservedConcurrency: definition.reservedConcurrency?.(settings),
        logRetention,
      });
      grantFunctionPermissions(fn, definition.permissions, {
        table,
        bucket,
        tokenSecret,
        cursorSecret,
        embeddingModelArn: embedding.modelArn,
      });
      if (definition.schedule) {
        // Each run does the whole job again (idempotent), so a failed one is not retried: the next run is soon.
        new Rule(this, `${functionConstructId(definition.name)}Schedule`, {
          schedule: definition.schedule,
          targets: [new LambdaFunction(fn, { retryAttempts: 0 })],
        });
      }
      functions[definition.name] = fn;
    }
    this.functions = functions;

    this.api = new RegistryApi(this, "Api", {
      functions,
      throttle: { rateLimit: settings.throttleRateLimit, burstLimit: settings.throttleBurstLimit },
      functionThrottles: Object.fromEntries(
        REGISTRY_FUNCTIONS.flatMap((definition) => (definition.throttle ? [[definition.name, definition.throttle(settings)]] : [])),
      ),
      allowedOrigins: settings.allowedOrigins,
      logRetention,
    });

    if (!settings.cdn && (settings.domainName || settings.webAclArn))
      throw new Error("domainName and WAF need the CloudFront distribution: leave cdn on");
    if (Boolean(settings.domainName) !== Boolean(settings.certificateArn)) {
      throw new Error("domainName and certificateArn go together (an ACM certificate in us-east-1 covering the domain)");
    }
    this.distribution = settings.cdn
      ? new RegistryDistribution(this, "Edge", {
          api: this.api.api,
          bucket,
          domain:
            settings.domainName && settings.certificateArn
              ? { name: settings.domainName, certificateArn: settings.certificateArn }
              : undefined,
          webAclArn: settings.webAclArn,
          authenticatedRoutes: REGISTRY_FUNCTIONS.flatMap((definition) =>
            Array.isArray(definition.routes) ? definition.routes.filter((route) => route.authenticated) : [],
          ),
        })
      : undefined;
    this.sdkPackage = new SdkPackageDeployment(this, "SdkPackage", { bucket, distribution: this.distribution?.distribution });
    // The fetch group serves `/sdk` (and `/sdk/<file>` without CloudFront) from what was uploaded.
    functions.fetch.addEnvironment("SDK_PACKAGE", JSON.stringify(this.sdkPackage.sdkPackage));
    // Links the functions write use this origin only (functions/http/request-origin.ts).
    const publicUrl = this.distribution?.publicUrl ?? this.api.api.apiEndpoint;
    for (const fn of Object.values(functions)) {
      fn.addEnvironment("PUBLIC_URL", publicUrl);
      if (this.distribution) {
        fn.addEnvironment("ORIGIN_VERIFY_SECRET", this.distribution.originSecret);
        fn.addEnvironment("ARCHIVE_DELIVERY", "cdn");
        fn.addEnvironment("EDGE_CACHE_SECONDS", String(settings.edgeCacheSeconds));
      }
      fn.addEnvironment("POWERTOOLS_METRICS_NAMESPACE", "AgentTools");
      fn.addEnvironment("POWERTOOLS_SERVICE_NAME", id);
    }

    if (settings.monitoring) {
      this.monitoring = new RegistryMonitoring(this, "Monitoring", {
        stackName: id,
        functions,
        api: this.api.api,
        table,
        indexNames: tableIndexNames(),
        alarmEmail: settings.alarmEmail,
        alarmTopicArn: settings.alarmTopicArn,
        requireDestination: settings.requireAlarmDestination ?? props.stage === "prod",
        stage: props.stage ?? "dev",
      });
    }

    new CfnOutput(this, "RegistryUrl", {
      value: publicUrl,
      description: "Registry base URL (toolsDbUrl for the SDK, AGENT_TOOLS_REGISTRY for the CLI)",
    });
    new CfnOutput(this, "ApiUrl", {
      value: this.api.api.apiEndpoint,
      description: this.distribution
        ? "execute-api endpoint (answers only through the distribution)"
        : "Registry base URL (toolsDbUrl for the SDK)",
    });
    if (this.distribution) {
      new CfnOutput(this, "DistributionId", {
        value: this.distribution.distribution.distributionId,
        description: "CloudFront distribution (for invalidations)",
      });
      new CfnOutput(this, "DistributionDomainName", {
        value: this.distribution.distribution.distributionDomainName,
        description: "The distribution's own domain: where a custom domain's CNAME or alias record points",
      });
    }
    new CfnOutput(this, "BucketName", { value: bucket.bucketName, description: "Archive bucket (retained on stack deletion)" });
    new CfnOutput(this, "TableName", { value: table.tableName, description: "Entry table (retained on stack deletion)" });
    new CfnOutput(this, "TokenSecretArn", { value: tokenSecret.secretArn, description: "Secret holding the write token" });
  }
}

/** A Secrets Manager secret of random letters and digits, made by the stack and deleted with it. */
function generatedSecret(scope: Construct, id: string, options: { description: string; length: number; whyNotRotated: string }): Secret {
  const secret = new Secret(scope, id, {
    description: options.description,
    generateSecretString: { passwordLength: options.length, excludePunctuation: true },
    removalPolicy: RemovalPolicy.DESTROY,
  });
  acknowledgeFinding(secret, "AwsSolutions-SMG4", options.whyNotRotated);
  return secret;
}

export function retentionDays(days: number): RetentionDays {
  const known = Object.values(RetentionDays).filter((value): value is RetentionDays => typeof value === "number");
  if (!known.includes(days as RetentionDays)) {
    throw new Error(`logRetentionDays must be one of CloudWatch's retention values (${known.join(", ")}), got ${days}`);
  }
  return days as RetentionDays;
}
