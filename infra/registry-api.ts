import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import { type CfnStage, CorsHttpMethod, HttpApi, type HttpStage, LogGroupLogDestination } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { acknowledgeFinding } from "./acknowledge-finding.js";
import { functionConstructId, REGISTRY_FUNCTIONS, type RegistryFunctionName, type RouteThrottle } from "./registry-functions.js";

export interface RegistryApiProps {
  readonly functions: Record<RegistryFunctionName, IFunction>;
  /** Every route's limits unless its function has its own. */
  readonly throttle: RouteThrottle;
  /** The routes of these functions get their own limits. */
  readonly functionThrottles: Partial<Record<RegistryFunctionName, RouteThrottle>>;
  readonly allowedOrigins: readonly string[];
  readonly logRetention: RetentionDays;
}

/** Fields every access log line carries (HTTP API `$context` variables), one JSON object per request. */
const ACCESS_LOG_FIELDS = {
  requestId: "$context.requestId",
  time: "$context.requestTime",
  ip: "$context.identity.sourceIp",
  method: "$context.httpMethod",
  path: "$context.path",
  route: "$context.routeKey",
  status: "$context.status",
  bytes: "$context.responseLength",
  latencyMs: "$context.responseLatency",
  integrationLatencyMs: "$context.integrationLatency",
  integrationError: "$context.integrationErrorMessage",
  error: "$context.error.message",
};

/** The public HTTP API: explicit write and search routes, fetch as the catch-all (so unknown paths get JSON 404s). */
export class RegistryApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: RegistryApiProps) {
    super(scope, id);
    // Each function's `routes` (registry-functions.ts) say what it serves; the "default" one also gets every other path.
    const served = REGISTRY_FUNCTIONS.flatMap((definition) =>
      definition.routes === undefined
        ? []
        : [
            {
              routes: definition.routes,
              integration: new HttpLambdaIntegration(functionConstructId(definition.name), props.functions[definition.name]),
              throttle: props.functionThrottles[definition.name],
            },
          ],
    );
    const catchAll = served.filter((entry) => entry.routes === "default");
    if (catchAll.length !== 1) throw new Error(`exactly one function must serve the API's default route, found ${catchAll.length}`);
    this.api = new HttpApi(this, "HttpApi", {
      description: "Agent Tools registry",
      createDefaultStage: false,
      defaultIntegration: catchAll[0]!.integration,
      ...(props.allowedOrigins.length > 0
        ? {
            corsPreflight: {
              allowOrigins: [...props.allowedOrigins],
              allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.DELETE],
              allowHeaders: ["authorization", "content-type"],
              exposeHeaders: ["link"],
              maxAge: Duration.hours(1),
            },
          }
        : {}),
    });
    acknowledgeFinding(
      this.api,
      "AwsSolutions-APIG4",
      "Reads are public by design (anyone may fetch and search tools); writes check the bearer write token in " +
        "the upload function (functions/auth), which an API Gateway authorizer would only duplicate at extra cost.",
    );
    const throttled: { key: string; throttle: RouteThrottle; route: Construct }[] = [];
    for (const { routes, integration, throttle } of served) {
      if (routes === "default") continue;
      for (const route of routes) {
        const added = this.api.addRoutes({ path: route.path, methods: [...route.methods], integration });
        if (!throttle) continue;
        for (const [index, httpRoute] of added.entries())
          throttled.push({ key: `${route.methods[index]} ${route.path}`, throttle, route: httpRoute });
      }
    }
    this.accessLogs = new LogGroup(this, "AccessLogs", { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = this.api.addStage("DefaultStage", {
      stageName: "$default",
      autoDeploy: true,
      throttle: { rateLimit: props.throttle.rateLimit, burstLimit: props.throttle.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });
    // Per-route limits (CDK's stage takes only the default; a JSON property, so CloudFormation's own
    // casing): each names a route, which must exist before the stage refers to it.
    const cfnStage = this.stage.node.defaultChild as CfnStage;
    cfnStage.routeSettings = Object.fromEntries(
      throttled.map(({ key, throttle }) => [key, { ThrottlingRateLimit: throttle.rateLimit, ThrottlingBurstLimit: throttle.burstLimit }]),
    );
    for (const { route } of throttled) cfnStage.node.addDependency(route);
  }
}
