// API Gateway HTTP API (payload format 2.0) events, as the Lambda entry points receive them.
export interface ApiGatewayRequest {
  method: string;
  /** Path with an optional query string, e.g. "/tools?limit=2". */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
}

export interface ApiGatewayResult {
  statusCode: number;
  headers?: Record<string, string>;
  body: string;
  isBase64Encoded: boolean;
}

/** Bodies are base64-encoded, as API Gateway does for multipart and binary payloads. */
export function apiGatewayEvent(request: ApiGatewayRequest) {
  const url = new URL(request.path, "https://api.example.test");
  const headers = { host: "api.example.test", "x-forwarded-proto": "https", ...lowerCaseKeys(request.headers ?? {}) };
  const body = request.body === undefined ? undefined : Buffer.from(request.body).toString("base64");
  return {
    version: "2.0",
    routeKey: "$default",
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ""),
    headers,
    queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
    requestContext: {
      accountId: "123456789012",
      apiId: "api",
      domainName: "api.example.test",
      domainPrefix: "api",
      http: { method: request.method, path: url.pathname, protocol: "HTTP/1.1", sourceIp: "127.0.0.1", userAgent: "vitest" },
      requestId: "request",
      routeKey: "$default",
      stage: "$default",
      time: "30/Nov/2026:00:00:00 +0000",
      timeEpoch: 0,
    },
    ...(body === undefined ? {} : { body, isBase64Encoded: true }),
    ...(body === undefined ? { isBase64Encoded: false } : {}),
  };
}

/** The response body's bytes, decoding base64 when the handler flagged it. */
export function resultBytes(result: ApiGatewayResult): Buffer {
  return result.isBase64Encoded ? Buffer.from(result.body, "base64") : Buffer.from(result.body, "utf8");
}

/** A multipart/form-data body with `bytes` as field `file`, and its Content-Type (with boundary). */
export async function multipartBody(bytes: Uint8Array, filename = "bundle.zip"): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  form.set("file", new Blob([bytes as Uint8Array<ArrayBuffer>]), filename);
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type")! };
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
