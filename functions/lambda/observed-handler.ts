import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import type { handle, LambdaContext, LambdaEvent } from "hono/aws-lambda";

type Env = Record<string, string | undefined>;
type LambdaHandler = ReturnType<typeof handle>;

/** CloudWatch namespace of the registry's EMF metrics unless `POWERTOOLS_METRICS_NAMESPACE` names another. */
export const METRICS_NAMESPACE = "AgentTools";

/**
 * Wraps a function's handler with one structured JSON log line per request (Powertools' logger:
 * Lambda request id, cold start, API Gateway request id, method, route, status, duration) and EMF
 * metrics (`ClientErrors`, `ServerErrors`, `ColdStart`) by function. The metrics exist only when
 * something happened, so an idle registry publishes no custom metric (see docs/deployment.md).
 */
export function observedHandler(name: string, inner: LambdaHandler, env: Env = process.env): LambdaHandler {
  const serviceName = env.POWERTOOLS_SERVICE_NAME || `agent-tools-${name}`;
  const logger = new Logger({ serviceName, persistentKeys: { function: name } });
  const metrics = new Metrics({
    serviceName,
    namespace: env.POWERTOOLS_METRICS_NAMESPACE || METRICS_NAMESPACE,
    defaultDimensions: { function: name },
  });
  let coldStart = true;
  return (async (event: LambdaEvent, context?: LambdaContext) => {
    const started = performance.now();
    if (context) logger.addContext(context as Parameters<Logger["addContext"]>[0]);
    const http = requestLine(event);
    if (coldStart) metrics.addMetric("ColdStart", MetricUnit.Count, 1);
    coldStart = false;
    try {
      const result = await inner(event, context);
      const status = result.statusCode;
      const line = { ...http, status, durationMs: Math.round(performance.now() - started) };
      if (status >= 500) {
        metrics.addMetric("ServerErrors", MetricUnit.Count, 1);
        logger.error("request failed", line);
      } else {
        if (status >= 400) metrics.addMetric("ClientErrors", MetricUnit.Count, 1);
        logger.info("request", line);
      }
      return result;
    } catch (error) {
      metrics.addMetric("ServerErrors", MetricUnit.Count, 1);
      logger.error("request threw", { ...http, durationMs: Math.round(performance.now() - started), error: error as Error });
      throw error;
    } finally {
      if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
    }
  }) as LambdaHandler;
}

/** What the access log also records, so a function's line and the API's line join on `apiRequestId`. */
function requestLine(event: LambdaEvent): Record<string, string | undefined> {
  const context = (event as { requestContext?: { requestId?: string; routeKey?: string; http?: { method?: string; path?: string } } })
    .requestContext;
  return { apiRequestId: context?.requestId, method: context?.http?.method, path: context?.http?.path, route: context?.routeKey };
}
