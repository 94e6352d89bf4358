import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Architecture, Runtime } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { join } from "node:path";
import { LAMBDA_BUNDLE, PROJECT_ROOT, lambdaEntry, type RegistryFunctionName } from "./lambda-bundling.js";

export interface RegistryFunctionProps {
  readonly name: RegistryFunctionName;
  readonly memorySize: number;
  readonly timeout: Duration;
  readonly environment: Record<string, string>;
  readonly logRetention: RetentionDays;
}

/** One registry Lambda function: the Hono entry point bundled by the local esbuild, arm64, Node.js 22. */
export class RegistryFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: RegistryFunctionProps) {
    super(scope, id);
    const logGroup = new LogGroup(this, "Logs", { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    // An own role instead of AWSLambdaBasicExecutionRole, whose logs actions apply to every log group ("*").
    const role = new Role(this, "Role", { assumedBy: new ServicePrincipal("lambda.amazonaws.com") });
    logGroup.grantWrite(role);
    this.function = new NodejsFunction(this, "Function", {
      entry: lambdaEntry(props.name),
      handler: "handler",
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize,
      timeout: props.timeout,
      logGroup,
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
