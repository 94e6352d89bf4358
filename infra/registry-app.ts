import { App, Tags } from "aws-cdk-lib";
import { RegistryAccessLogsStack } from "./registry-access-logs-stack.js";
import { RegistryEdgeStack } from "./registry-edge-stack.js";
import { RegistryStack, retentionDays } from "./registry-stack.js";
import { settingsFromContext } from "./registry-settings.js";

/** Stage names become part of stack and resource names: short, lower-case, no dots. */
const STAGE_NAME = /^[a-z][a-z0-9-]{0,19}$/;

/**
 * The CDK app: one environment-agnostic stack (no account lookups, so synth needs no credentials)
 * per invocation, for the stage named by context `stage` (default `dev`): `AgentToolsRegistry-dev`,
 * `AgentToolsRegistry-prod`, … Settings come from `-c key=value` and top-level `cdk.json` context,
 * then from `cdk.json` `stages.<stage>`, then from the defaults (see docs/deployment.md).
 */
export function createRegistryApp(app = new App()): { app: App; stack: RegistryStack; stage: string } {
  // Log delivery to the access-log bucket through its bucket policy, not a legacy ACL (ACLs stay disabled).
  app.node.setContext("@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy", true);
  const stage = String(app.node.tryGetContext("stage") ?? "dev");
  if (!STAGE_NAME.test(stage)) throw new Error(`context "stage" must match ${STAGE_NAME} (e.g. dev, prod), got "${stage}"`);
  const stages = (app.node.tryGetContext("stages") ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const stageContext = stages[stage] ?? {};
  const lookup = (key: string): unknown => app.node.tryGetContext(key) ?? stageContext[key];
  const stackName = String(lookup("stackName") ?? `AgentToolsRegistry-${stage}`);
  const settings = settingsFromContext(lookup);
  if (settings.cdnAccessLogs === true && !settings.cdn)
    throw new Error("-c cdnAccessLogs=true needs the CloudFront distribution: leave cdn on");
  const accessLogs = settings.cdn && (settings.cdnAccessLogs ?? stage === "prod");
  const terminationProtection = stage === "prod";
  const edge = settings.waf ? edgeStack(app, stackName, settings.wafRateLimit, terminationProtection) : undefined;
  const acrossRegions = edge !== undefined || accessLogs;
  const stack = new RegistryStack(app, stackName, {
    settings: edge ? { ...settings, webAclArn: edge.webAclArn } : settings,
    // `cdk destroy` of prod fails until someone turns this off on purpose.
    terminationProtection,
    ...(acrossRegions ? { env: { region: registryRegion(), account: process.env.CDK_DEFAULT_ACCOUNT }, crossRegionReferences: true } : {}),
    stage,
    description: `Agent Tools registry (${stage}): HTTP API, Lambda functions, S3 archives, DynamoDB entries`,
  });
  const logs = accessLogs
    ? new RegistryAccessLogsStack(app, `${stackName}-access-logs`, {
        ...usEast1(),
        terminationProtection,
        distributionId: stack.distribution!.distribution.distributionId,
        retention: retentionDays(settings.logRetentionDays),
        description: "Agent Tools registry: CloudFront access logs of its distribution, standard logging v2 (us-east-1)",
      })
    : undefined;
  for (const tagged of [stack, edge, logs]) if (tagged) Tags.of(tagged).add("agent-tools:stage", stage);
  return { app, stack, stage };
}

/** CloudFront's edge resources (web ACLs, log delivery sources) must be created in us-east-1, referenced across regions. */
function usEast1() {
  return { env: { region: "us-east-1", account: process.env.CDK_DEFAULT_ACCOUNT }, crossRegionReferences: true };
}

function edgeStack(app: App, stackName: string, rateLimit: number, terminationProtection: boolean): RegistryEdgeStack {
  registryRegion();
  return new RegistryEdgeStack(app, `${stackName}-edge`, {
    ...usEast1(),
    terminationProtection,
    rateLimit,
    description: "Agent Tools registry: WAF web ACL for its CloudFront distribution (us-east-1)",
  });
}

/** The registry stack's region: known at synth when a us-east-1 stack references it (or it them). */
function registryRegion(): string {
  const region = process.env.AWS_REGION ?? process.env.CDK_DEFAULT_REGION;
  if (!region)
    throw new Error(
      "-c waf=true and CloudFront access logs (cdnAccessLogs, on in prod) need the registry's region: set AWS_REGION " +
        "(their resources go to us-east-1, referenced across regions), or give -c cdnAccessLogs=false",
    );
  return region;
}
