/**
 * Links the registry writes (`tool_source_code_link`, a presigned upload's `completeUrl`, `Link`)
 * use `PUBLIC_URL`, else the request's own origin: `X-Forwarded-Host`/`-Proto` sent by a client
 * are ignored, unless the peer is a proxy named in `TRUSTED_PROXIES`. Over real HTTP on the local
 * server and through the Lambda handlers with API Gateway events.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLambdaHandler } from "../../../functions/lambda/create-lambda-handler.js";
import { apiGatewayEvent, API_DOMAIN, resultBytes, type ApiGatewayResult, type EventInput } from "../../support/api-gateway-event.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, storageEnv, uploadBundle, type TestRegistry } from "../../support/registry.js";

const SPOOFED = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" };
const LINK = "/tools/text-stats/versions/1.0.0/archive";

let registry: TestRegistry;
let behindProxy: TestRegistry;
let withPublicUrl: TestRegistry;

beforeAll(async () => {
  [registry, behindProxy, withPublicUrl] = await Promise.all([
    startTestRegistry(),
    startTestRegistry({ trustedProxies: ["127.0.0.1"] }),
    startTestRegistry({ publicUrl: "https://tools.example.org/" }),
  ]);
  const { bundle } = await fixtureBundle("text-stats");
  for (const target of [registry, behindProxy, withPublicUrl])
    expect((await uploadBundle(target.url, target.token, bundle)).status).toBe(200);
});
afterAll(async () => {
  await Promise.all([registry, behindProxy, withPublicUrl].map((target) => target?.close()));
});

async function getEntry(target: TestRegistry, headers: Record<string, string>) {
  const response = await fetch(`${target.url}/tools/text-stats`, { headers });
  return (await response.json()) as { tool_source_code_link: string };
}

async function startUpload(target: TestRegistry, headers: Record<string, string>) {
  const response = await fetch(`${target.url}/tools/uploads`, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${target.token}`, "content-type": "application/json" },
    body: JSON.stringify({ size: 1000 }),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { completeUrl: string };
}

describe("local server", () => {
  it("ignores forwarded headers from a client that is not a trusted proxy", async () => {
    expect((await getEntry(registry, SPOOFED)).tool_source_code_link).toBe(`${registry.url}${LINK}`);
    expect((await startUpload(registry, SPOOFED)).completeUrl).toMatch(
      new RegExp(`^${registry.url}/tools/uploads/[0-9a-f-]{36}/complete$`),
    );
    const list = await fetch(`${registry.url}/tools?limit=1`, { headers: SPOOFED });
    expect(await list.json()).toHaveLength(1);
    const next = list.headers.get("link");
    if (next !== null) expect(next).not.toContain("evil.example");
  });

  it("believes them from a trusted proxy, and only a proto of http or https", async () => {
    expect((await getEntry(behindProxy, { "x-forwarded-host": "tools.lan", "x-forwarded-proto": "https" })).tool_source_code_link).toBe(
      `https://tools.lan${LINK}`,
    );
    expect(
      (await getEntry(behindProxy, { "x-forwarded-host": "tools.lan", "x-forwarded-proto": "javascript" })).tool_source_code_link,
    ).toBe(`http://tools.lan${LINK}`);
    expect((await getEntry(behindProxy, {})).tool_source_code_link).toBe(`${behindProxy.url}${LINK}`);
  });

  it("uses PUBLIC_URL over everything the request says", async () => {
    expect((await getEntry(withPublicUrl, SPOOFED)).tool_source_code_link).toBe(`https://tools.example.org${LINK}`);
    expect((await startUpload(withPublicUrl, SPOOFED)).completeUrl).toMatch(/^https:\/\/tools\.example\.org\/tools\/uploads\//);
  });
});

describe("Lambda handlers (API Gateway events)", () => {
  type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;
  const handlers = (env: Record<string, string>) => {
    const full = { ...storageEnv(registry), REGISTRY_TOKEN_SHA256: createHash("sha256").update(registry.token).digest("hex"), ...env };
    return {
      fetch: createLambdaHandler("fetch", { env: full }) as unknown as Handler,
      upload: createLambdaHandler("upload", { env: full }) as unknown as Handler,
    };
  };
  const call = async (handler: Handler, request: EventInput) =>
    JSON.parse(resultBytes(await handler(apiGatewayEvent(request))).toString("utf8"));
  const uploads = (headers: Record<string, string>): EventInput => ({
    method: "POST",
    url: "/tools/uploads",
    headers: { ...headers, authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
    body: JSON.stringify({ size: 1000 }),
  });

  it("ignore a client's X-Forwarded-Host in entries and completeUrl", async () => {
    const { fetch, upload } = handlers({});
    expect((await call(fetch, { method: "GET", url: "/tools/text-stats", headers: SPOOFED })).tool_source_code_link).toBe(
      `https://${API_DOMAIN}${LINK}`,
    );
    expect((await call(upload, uploads(SPOOFED))).completeUrl).toMatch(new RegExp(`^https://${API_DOMAIN}/tools/uploads/`));
  });

  it("use the PUBLIC_URL the stack sets", async () => {
    const { fetch, upload } = handlers({ PUBLIC_URL: "https://registry.example.com" });
    expect((await call(fetch, { method: "GET", url: "/tools/text-stats", headers: SPOOFED })).tool_source_code_link).toBe(
      `https://registry.example.com${LINK}`,
    );
    expect((await call(upload, uploads(SPOOFED))).completeUrl).toMatch(/^https:\/\/registry\.example\.com\/tools\/uploads\//);
  });

  it("believe forwarded headers only when API Gateway's source address is a trusted proxy", async () => {
    const { fetch } = handlers({ TRUSTED_PROXIES: "192.0.2.1" }); // the test events' sourceIp
    const headers = { "x-forwarded-host": "tools.lan", "x-forwarded-proto": "https" };
    expect((await call(fetch, { method: "GET", url: "/tools/text-stats", headers })).tool_source_code_link).toBe(
      `https://tools.lan${LINK}`,
    );
    const other = handlers({ TRUSTED_PROXIES: "198.51.100.7" });
    expect((await call(other.fetch, { method: "GET", url: "/tools/text-stats", headers })).tool_source_code_link).toBe(
      `https://${API_DOMAIN}${LINK}`,
    );
  });
});
