import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import { CorsHttpMethod, HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import type { RegistryFunctionName } from "./lambda-bundling.js";

export interface RegistryApiProps {
  readonly functions: Record<RegistryFunctionName, IFunction>;
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  readonly allowedOrigins: readonly string[];
  readonly logRetention: RetentionDays;
}

/** Which function serves which route. Everything not listed (other GETs, unknown paths) goes to fetch. */
export const API_ROUTES: readonly { path: string; methods: HttpMethod[]; target: RegistryFunctionName }[] = [
  { path: "/tools/upload", methods: [HttpMethod.POST], target: "upload" },
  { path: "/tools/uploads", methods: [HttpMethod.POST], target: "upload" },
  { path: "/tools/uploads/{uploadId}/complete", methods: [HttpMethod.POST], target: "upload" },
  { path: "/tools/{id}", methods: [HttpMethod.PUT, HttpMethod.DELETE], target: "upload" },
  { path: "/tools/search", methods: [HttpMethod.GET], target: "search" },
];

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
    const integrations = {
      upload: new HttpLambdaIntegration("Upload", props.functions.upload),
      fetch: new HttpLambdaIntegration("Fetch", props.functions.fetch),
      search: new HttpLambdaIntegration("Search", props.functions.search),
    };
    this.api = new HttpApi(this, "HttpApi", {
      description: "Agent Tools registry",
      createDefaultStage: false,
      defaultIntegration: integrations.fetch,
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
    for (const route of API_ROUTES) {
      this.api.addRoutes({ path: route.path, methods: route.methods, integration: integrations[route.target] });
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
  }
}
