/**
 * The direct-upload cap matches what fits a Lambda event: measured with the largest headers API
 * Gateway accepts, then checked at the boundary through the upload handler (API Gateway events)
 * and the local server (real HTTP): the largest body is published, one byte more is our JSON 413
 * with the large-upload hint. The SDK switches to the presigned flow above its matching threshold,
 * and maps a gateway's own 413 to the same error.
 */
import { createHash, randomBytes } from "node:crypto";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegistryError } from "@agent-tools/sdk";
import { DIRECT_UPLOAD_MAX_BYTES, LARGE_UPLOAD_HINT as SDK_HINT, uploadBundle as sdkUpload } from "../../sdk/src/publish/upload-bundle.js";
import {
  DIRECT_UPLOAD_MAX_BODY_BYTES,
  EVENT_ENVELOPE_BYTES,
  LAMBDA_EVENT_MAX_BYTES,
  LARGE_UPLOAD_HINT,
} from "../../functions/http/direct-upload-limit.js";
import { createLambdaHandler } from "../../functions/lambda/create-lambda-handler.js";
import { apiGatewayEvent, multipartBundle, resultBytes, type ApiGatewayResult } from "../support/api-gateway-event.js";
import { buildBundle, fixtureBundle, zipFiles } from "../support/bundles.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../support/registry.js";

type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;

/** HTTP APIs accept 10 KiB of request line and headers: the largest envelope a real client can cause. */
const HEADER_QUOTA_BYTES = 10 * 1024;

/** Headers as CloudFront and API Gateway add them, padded with a quote-heavy value (JSON doubles quotes) to the quota. */
function largestHeaders(token: string, contentType: string): Record<string, string> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    "content-type": contentType,
    via: "2.0 0123456789abcdef0123456789abcdef.cloudfront.net (CloudFront)",
    "x-amz-cf-id": "Zx9Q3xJ0m0G5b8yq0Yc8b1Zq0ZyB3W8w0w0w0w0w0w0w0w0w0w0w0w==",
    "x-amzn-trace-id": "Root=1-67a0b0c0-0123456789abcdef01234567",
    "x-forwarded-for": "198.51.100.7, 130.176.0.1",
    "cloudfront-viewer-country": "DE",
    "user-agent": "agent-tools/0.1.0 node/24",
  };
  const used = Object.entries(headers).reduce(
    (sum, [name, value]) => sum + name.length + value.length + 4,
    "POST /tools/upload HTTP/1.1\r\n".length,
  );
  headers["x-padding"] = '"'.repeat(HEADER_QUOTA_BYTES - used - "x-padding".length - 4);
  return headers;
}

/** A valid text-stats bundle whose multipart body is exactly `bodyBytes` (random filler in `code/`, then the filename's length). */
async function bundleWithBody(bodyBytes: number): Promise<{ body: Uint8Array; contentType: string; bundle: Uint8Array }> {
  const fixture = await fixtureBundle("text-stats");
  const code = unzipSync(fixture.toolZip);
  const build = (filler: number) =>
    buildBundle({ spec: fixture.spec, toolZip: zipFiles({ ...code, "code/filler.bin": randomBytes(filler) }), toolMd: "# text-stats\n" });
  let bundle = build(bodyBytes - 600);
  bundle = build(bodyBytes - 600 + (bodyBytes - 400 - bundle.byteLength));
  return { ...(await multipartOfSize(bundle, bodyBytes)), bundle };
}

/** `bundle` as multipart field `file`, its filename lengthened until the body is exactly `bodyBytes`. */
async function multipartOfSize(bundle: Uint8Array, bodyBytes: number): Promise<{ body: Uint8Array; contentType: string }> {
  const padding = bodyBytes - (await multipartBundle(bundle, "b.zip")).body.byteLength;
  expect(padding, "filename padding").toBeGreaterThanOrEqual(0);
  return multipartBundle(bundle, `${"b".repeat(padding + 1)}.zip`);
}

let registry: TestRegistry;
let upload: Handler;
let largest: { body: Uint8Array; contentType: string; bundle: Uint8Array };
let oneOver: { body: Uint8Array; contentType: string };

beforeAll(async () => {
  registry = await startTestRegistry();
  upload = createLambdaHandler("upload", {
    env: { ...storageEnv(registry), REGISTRY_TOKEN_SHA256: createHash("sha256").update(registry.token).digest("hex") },
  }) as unknown as Handler;
  largest = await bundleWithBody(DIRECT_UPLOAD_MAX_BODY_BYTES);
  // The same bundle, one character more in its filename.
  oneOver = await multipartOfSize(largest.bundle, DIRECT_UPLOAD_MAX_BODY_BYTES + 1);
});
afterAll(() => registry?.close());

const eventBytes = (event: unknown) => Buffer.byteLength(JSON.stringify(event));

describe("the cap, measured", () => {
  it("leaves room for the largest envelope API Gateway can send, and is what the SDK switches at", () => {
    const headers = largestHeaders(registry.token, largest.contentType);
    const envelope = eventBytes(apiGatewayEvent({ method: "POST", url: "/tools/upload", headers }));
    expect(envelope).toBeGreaterThan(HEADER_QUOTA_BYTES);
    expect(envelope).toBeLessThan(EVENT_ENVELOPE_BYTES);
    const event = apiGatewayEvent({ method: "POST", url: "/tools/upload", headers, body: largest.body });
    expect(largest.body.byteLength).toBe(DIRECT_UPLOAD_MAX_BODY_BYTES);
    expect(eventBytes(event)).toBeLessThanOrEqual(LAMBDA_EVENT_MAX_BYTES);
    // The largest body that fits this envelope, by base64's 4 bytes per 3: the cap is below it.
    expect(Math.floor((LAMBDA_EVENT_MAX_BYTES - envelope) / 4) * 3).toBeGreaterThanOrEqual(DIRECT_UPLOAD_MAX_BODY_BYTES);
    // What the issue saw: a 4.6 MiB bundle does not fit at all, so it must take the presigned path.
    const big = apiGatewayEvent({
      method: "POST",
      url: "/tools/upload",
      headers: { "content-type": largest.contentType },
      body: new Uint8Array(4.6 * 1024 * 1024),
    });
    expect(eventBytes(big)).toBeGreaterThan(LAMBDA_EVENT_MAX_BYTES);
    // The SDK sends `bundle.zip`; 1 KiB of the cap is its multipart framing.
    expect(DIRECT_UPLOAD_MAX_BYTES).toBe(DIRECT_UPLOAD_MAX_BODY_BYTES - 1024);
    expect(SDK_HINT).toBe(LARGE_UPLOAD_HINT);
  });
});

describe("the upload handler at the boundary (API Gateway events)", () => {
  const post = (body: { body: Uint8Array; contentType: string }) =>
    upload(
      apiGatewayEvent({
        method: "POST",
        url: "/tools/upload",
        headers: { authorization: `Bearer ${registry.token}`, "content-type": body.contentType },
        body: body.body,
      }),
    );

  it("publishes the largest direct upload", async () => {
    const result = await post(largest);
    expect(result.statusCode, result.body).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ message: "Tool uploaded successfully", tool_id: "text-stats" });
  });

  it("refuses one byte more with the JSON 413 and the large-upload hint", async () => {
    expect(oneOver.body.byteLength).toBe(DIRECT_UPLOAD_MAX_BODY_BYTES + 1);
    const result = await post(oneOver);
    expect(result.statusCode).toBe(413);
    const body = JSON.parse(resultBytes(result).toString("utf8")) as { error: string; detail: string };
    expect(body.error).toBe("Bundle too large");
    expect(body.detail).toContain(String(DIRECT_UPLOAD_MAX_BODY_BYTES));
    expect(body.detail).toContain(LARGE_UPLOAD_HINT);
  });
});

describe("the local server at the same boundary (real HTTP)", () => {
  const post = (body: { body: Uint8Array; contentType: string }) =>
    fetch(`${registry.url}/tools/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${registry.token}`, "content-type": body.contentType },
      body: body.body as Uint8Array<ArrayBuffer>,
    });

  it("answers exactly as the Lambda does", async () => {
    const accepted = await post(largest);
    // Published by the handler test already: the same (id, version) is a 409, past the size check.
    expect([200, 409]).toContain(accepted.status);
    const refused = await post(oneOver);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { detail: string }).detail).toContain(LARGE_UPLOAD_HINT);
  });
});

describe("the SDK", () => {
  /** A gateway in front with a smaller limit: answers `/tools/upload` itself, as API Gateway does. */
  const gatewayFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname === "/tools/upload")
      return new Response('{"message":"Request Entity Too Large"}', { status: 413, headers: { "content-type": "application/json" } });
    return fetch(input, init);
  };

  it("maps a gateway's 413 to the registry's error with the hint when told to upload directly", async () => {
    const bundle = (await fixtureBundle("text-stats", { version: "2.0.0" })).bundle;
    const failure = await sdkUpload(bundle, { registryUrl: registry.url, token: registry.token, via: "upload", fetch: gatewayFetch }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RegistryError);
    expect(failure).toMatchObject({ status: 413, error: "Bundle too large" });
    expect((failure as RegistryError).detail).toContain("Request Entity Too Large");
    expect((failure as RegistryError).detail).toContain(LARGE_UPLOAD_HINT);
  });

  it("falls back to the presigned flow on a gateway's 413 when it picks the path itself", async () => {
    const bundle = (await fixtureBundle("text-stats", { version: "2.0.1" })).bundle;
    const published = await sdkUpload(bundle, { registryUrl: registry.url, token: registry.token, fetch: gatewayFetch });
    expect(published).toMatchObject({ tool_id: "text-stats", version: "2.0.1", via: "presigned" });
  });
});
