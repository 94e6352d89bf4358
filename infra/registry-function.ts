import { RemovalPolicy } from "aws-cdk-lib";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, SystemLogLevel } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { join } from "node:path";
import { LAMBDA_BUNDLE, PROJECT_ROOT, lambdaEntry } from "./lambda-bundling.js";
import type { RegistryFunctionDefinition } from "./registry-functions.js";

export interface RegistryFunctionProps {
  readonly definition: RegistryFunctionDefinition;
  readonly environment: Record<string, string>;
  readonly reservedConcurrency: number | undefined;
  readonly logRetention: RetentionDays;
}

/** One registry Lambda function: its entry point bundled by the local esbuild, arm64, Node.js 24, JSON logs. */
export class RegistryFunction extends Construct {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: RegistryFunctionProps) {
    super(scope, id);
    const { definition } = props;
    this.logGroup = new LogGroup(this, "Logs", { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    // An own role instead of AWSLambdaBasicExecutionRole, whose logs actions apply to every log group ("*").
    const role = new Role(this, "Role", { assumedBy: new ServicePrincipal("lambda.amazonaws.com") });
    this.logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, "Function", {
      entry: lambdaEntry(definition.name),
      handler: "handler",
      description: definition.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: definition.memorySize,
      timeout: definition.timeout,
      reservedConcurrentExecutions: props.reservedConcurrency,
      // Scheduled and stream-driven work is idempotent and comes again: no asynchronous retries (docs/durability.md#the-doctor).
      ...(definition.schedule ? { retryAttempts: 0 } : {}),
      logGroup: this.logGroup,
      // The runtime's JSON format puts the request id on every line, `console.*` included; our own
      // lines come from Powertools' logger (functions/lambda/request-logging.ts) in the same shape.
      loggingFormat: LoggingFormat.JSON,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      systemLogLevelV2: SystemLogLevel.WARN,
      role,
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, "package-lock.json"),
      environment: {
        ...props.environment,
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      },
      bundling: {
        format: OutputFormat.ESM,
        target: LAMBDA_BUNDLE.target,
        minify: LAMBDA_BUNDLE.minify,
        sourceMap: LAMBDA_BUNDLE.sourcemap,
        externalModules: [...LAMBDA_BUNDLE.external],
        mainFields: [...LAMBDA_BUNDLE.mainFields],
        banner: LAMBDA_BUNDLE.banner,
        forceDockerBundling: false,
      },
    });
  }
}
