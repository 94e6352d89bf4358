/**
 * A function's handler writes one structured JSON line per request (with the Lambda and API
 * Gateway request ids) and EMF metrics only when something happened, as CloudWatch reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLambdaHandler } from "../../functions/lambda/create-lambda-handler.js";
import { apiGatewayEvent, type ApiGatewayResult } from "../support/api-gateway-event.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../support/registry.js";

type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;

const LAMBDA_CONTEXT = {
  functionName: "AgentToolsRegistry-dev-Fetch",
  functionVersion: "$LATEST",
  invokedFunctionArn: "arn:aws:lambda:eu-west-1:123456789012:function:AgentToolsRegistry-dev-Fetch",
  memoryLimitInMB: "512",
  awsRequestId: "c6af9ac6-7b61-11e6-9a41-93e812345678",
  getRemainingTimeInMillis: () => 10_000,
};

let registry: TestRegistry;
const saved = { ...process.env };

beforeAll(async () => {
  registry = await startTestRegistry();
  // The test config silences Powertools; this file checks what it writes.
  process.env.POWERTOOLS_LOG_LEVEL = "INFO";
  process.env.POWERTOOLS_METRICS_DISABLED = "false";
});
afterAll(async () => {
  process.env = saved;
  await registry?.close();
});

/** Every line the handler wrote to stdout while answering, parsed. */
async function linesOf(handler: Handler, url: string): Promise<Record<string, any>[]> {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  try {
    await handler(apiGatewayEvent({ method: "GET", url }), LAMBDA_CONTEXT);
  } finally {
    process.stdout.write = write;
  }
  return written
    .join("")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);
}

describe("observed handler", () => {
  it("logs each request as JSON with both request ids, and counts a cold start and client errors in EMF", async () => {
    const handler = createLambdaHandler("fetch", { env: storageEnv(registry) }) as unknown as Handler;
    const first = await linesOf(handler, "/tools/no-such-tool");
    const request = first.find((line) => line.message === "request")!;
    expect(request).toMatchObject({
      level: "INFO",
      service: "agent-tools-fetch",
      function: "fetch",
      function_request_id: LAMBDA_CONTEXT.awsRequestId,
      function_name: LAMBDA_CONTEXT.functionName,
      method: "GET",
      path: "/tools/no-such-tool",
      status: 404,
    });
    expect(request.apiRequestId).toMatch(/^req-/);
    expect(request.durationMs).toBeGreaterThanOrEqual(0);
    const emf = first.find((line) => line._aws)!;
    expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: "AgentTools", Dimensions: [["service", "function"]] });
    expect(emf).toMatchObject({ function: "fetch", ColdStart: 1, ClientErrors: 1 });

    // Warm and fine: a log line, and no metric at all (an idle or healthy registry publishes none).
    const second = await linesOf(handler, "/health");
    expect(second.find((line) => line.message === "request")).toMatchObject({
      status: 200,
      function_request_id: LAMBDA_CONTEXT.awsRequestId,
    });
    expect(second.filter((line) => line._aws)).toEqual([]);
  });
});
