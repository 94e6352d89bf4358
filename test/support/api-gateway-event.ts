/**
 * API Gateway HTTP API (payload format 2.0) events as the service builds them: lower-case headers,
 * raw path and query, and any non-empty body base64-encoded (as HTTP APIs do for binary media,
 * which includes multipart uploads).
 */
import type { LambdaEvent } from "hono/aws-lambda";

export const API_DOMAIN = "abc123.execute-api.eu-west-1.amazonaws.com";

export interface EventInput {
  method: string;
  /** Path with optional query, e.g. `/tools/search?q=words`. */
  url: string;
  /** The API's route key that matched (`$default` for the catch-all). */
  routeKey?: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
}

export function apiGatewayEvent({ method, url, routeKey = "$default", headers = {}, body }: EventInput): LambdaEvent {
  const parsed = new URL(url, `https://${API_DOMAIN}`);
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const lowerHeaders = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    version: "2.0",
    routeKey,
    rawPath: parsed.pathname,
    rawQueryString: parsed.search.replace(/^\?/, ""),
    headers: {
      host: API_DOMAIN,
      "x-forwarded-proto": "https",
      "x-forwarded-port": "443",
      "user-agent": "vitest",
      ...(bytes ? { "content-length": String(bytes.byteLength) } : {}),
      ...lowerHeaders,
    },
    ...(parsed.search ? { queryStringParameters: Object.fromEntries(parsed.searchParams) } : {}),
    body: bytes && bytes.byteLength > 0 ? Buffer.from(bytes).toString("base64") : null,
    isBase64Encoded: bytes !== undefined && bytes.byteLength > 0,
    requestContext: {
      accountId: "123456789012",
      apiId: "abc123",
      domainName: API_DOMAIN,
      domainPrefix: "abc123",
      http: { method, path: parsed.pathname, protocol: "HTTP/1.1", sourceIp: "192.0.2.1", userAgent: "vitest" },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey,
      stage: "$default",
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
  } as unknown as LambdaEvent;
}

/** A multipart/form-data body with the bundle as field `file`, as `curl -F file=@bundle.zip` sends it. */
export async function multipartBundle(bundle: Uint8Array, filename = "bundle.zip"): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.set("file", new Blob([bundle as Uint8Array<ArrayBuffer>], { type: "application/zip" }), filename);
  const request = new Request("http://form.invalid/", { method: "POST", body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type")! };
}

/** What a Lambda entry point answers (API Gateway payload format 2.0). */
export interface ApiGatewayResult {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

/** The response body's bytes, decoding base64 when the handler flagged it. */
export function resultBytes(result: ApiGatewayResult): Buffer {
  return result.isBase64Encoded ? Buffer.from(result.body, "base64") : Buffer.from(result.body, "utf8");
}
