// The three Lambda entry points, called with API Gateway v2 events against the emulators.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureBundle, type FixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, storageEnv, type TestRegistry } from "../../support/registry.js";
import {
  API_DOMAIN,
  apiGatewayEvent,
  multipartBundle,
  resultBytes,
  type ApiGatewayResult,
  type EventInput,
} from "../../support/api-gateway-event.js";

type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;

let registry: TestRegistry;
let upload: Handler;
let fetchHandler: Handler;
let search: Handler;
let textStats: FixtureBundle;
const savedEnv = { ...process.env };

const call = (handler: Handler, request: EventInput) => handler(apiGatewayEvent(request), {});
const json = (result: ApiGatewayResult) => JSON.parse(resultBytes(result).toString("utf8"));
const postBundle = async (token?: string) => {
  const { body, contentType } = await multipartBundle(textStats.bundle);
  const headers: Record<string, string> = { "content-type": contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  return call(upload, { method: "POST", url: "/tools/upload", headers, body });
};

beforeAll(async () => {
  // The emulators of a test registry stand in for AWS; the handlers read their config from env.
  registry = await startTestRegistry();
  Object.assign(process.env, {
    ...storageEnv(registry),
    REGISTRY_TOKEN_SHA256: createHash("sha256").update(registry.token).digest("hex"),
    ARCHIVE_DELIVERY: "proxy",
  });
  upload = (await import("../../../functions/lambda/upload.js")).handler as unknown as Handler;
  fetchHandler = (await import("../../../functions/lambda/fetch.js")).handler as unknown as Handler;
  search = (await import("../../../functions/lambda/search.js")).handler as unknown as Handler;
  textStats = await fixtureBundle("text-stats");
});

afterAll(async () => {
  process.env = savedEnv;
  await registry?.close();
});

describe("Lambda entry points", () => {
  it("upload: accepts a base64 multipart bundle with the write token", async () => {
    const result = await postBundle(registry.token);
    expect(result.statusCode).toBe(200);
    expect(json(result)).toEqual({ message: "Tool uploaded successfully", tool_id: "text-stats", version: "1.0.0" });
  });

  it("upload: refuses a missing token and a duplicate with JSON errors", async () => {
    const anonymous = await postBundle();
    expect(anonymous.statusCode).toBe(401);
    expect(json(anonymous).detail).toMatch(/Bearer/);
    const duplicate = await postBundle(registry.token);
    expect(duplicate.statusCode).toBe(409);
  });

  it("fetch: serves the entry with an https link on the API's domain, and the exact archive bytes", async () => {
    const entry = await call(fetchHandler, { method: "GET", url: "/tools/text-stats" });
    expect(entry.statusCode).toBe(200);
    const link = json(entry).tool_source_code_link as string;
    expect(link).toBe(`https://${API_DOMAIN}/tools/text-stats/versions/1.0.0/archive`);
    const archive = await call(fetchHandler, { method: "GET", url: new URL(link).pathname });
    expect(archive.statusCode).toBe(200);
    expect(archive.isBase64Encoded).toBe(true);
    expect(resultBytes(archive).equals(Buffer.from(textStats.toolZip))).toBe(true);
  });

  it("fetch: lists with a Link header and answers JSON 404s", async () => {
    const list = await call(fetchHandler, { method: "GET", url: "/tools?limit=1" });
    expect(json(list).map((e: { tool_id: string }) => e.tool_id)).toEqual(["text-stats"]);
    const missing = await call(fetchHandler, { method: "GET", url: "/tools/none" });
    expect(missing.statusCode).toBe(404);
    expect(json(missing).error).toBe("Tool not found");
  });

  it("each group serves only its own routes", async () => {
    expect((await call(fetchHandler, { method: "DELETE", url: "/tools/text-stats" })).statusCode).toBe(405);
    expect((await call(upload, { method: "GET", url: "/health" })).statusCode).toBe(404);
    expect((await call(search, { method: "GET", url: "/health" })).statusCode).toBe(404);
  });

  it("upload: deletes with the token", async () => {
    const deleted = await call(upload, {
      method: "DELETE",
      url: "/tools/text-stats",
      headers: { authorization: `Bearer ${registry.token}` },
    });
    expect(json(deleted)).toEqual({ message: "Tool deleted successfully" });
    expect((await call(fetchHandler, { method: "GET", url: "/tools/text-stats" })).statusCode).toBe(404);
  });
});
