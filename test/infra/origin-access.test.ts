/**
 * Behind CloudFront the functions answer only requests carrying the distribution's origin secret
 * (so the execute-api endpoint cannot bypass the edge), and archive URLs redirect to the
 * distribution's content-addressed `/archives/<sha256>` (cached at the edge for versions).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLambdaHandler } from "../../functions/lambda/create-lambda-handler.js";
import { ORIGIN_VERIFY_HEADER } from "../../functions/http/origin-secret.js";
import { apiGatewayEvent, type ApiGatewayResult, type EventInput } from "../support/api-gateway-event.js";
import { fixtureBundle, type FixtureBundle } from "../support/bundles.js";
import { startTestRegistry, storageEnv, uploadBundle, type TestRegistry } from "../support/registry.js";

type Handler = (event: unknown, context?: unknown) => Promise<ApiGatewayResult>;

const SECRET = "3f0c5b8e-7a51-11ef-9c1d-0a1b2c3d4e5f"; // a stack id's UUID, as the stack sets it
const PUBLIC_URL = "https://d111111abcdef8.cloudfront.net";

let registry: TestRegistry;
let textStats: FixtureBundle;
let fetchHandler: Handler;

beforeAll(async () => {
  registry = await startTestRegistry();
  textStats = await fixtureBundle("text-stats");
  expect((await uploadBundle(registry.url, registry.token, textStats.bundle)).status).toBe(200);
  fetchHandler = createLambdaHandler("fetch", {
    env: { ...storageEnv(registry), ORIGIN_VERIFY_SECRET: SECRET, PUBLIC_URL, ARCHIVE_DELIVERY: "cdn", AWS_LAMBDA_FUNCTION_NAME: "fetch" },
  }) as unknown as Handler;
});
afterAll(() => registry?.close());

/** `secret: null` sends no origin header, as a client calling execute-api directly. */
const call = (request: EventInput, secret: string | null = SECRET) =>
  fetchHandler(
    apiGatewayEvent({ ...request, headers: { ...request.headers, ...(secret === null ? {} : { [ORIGIN_VERIFY_HEADER]: secret }) } }),
  );

describe("origin access", () => {
  it("answers the distribution, which sends the secret", async () => {
    expect((await call({ method: "GET", url: "/health" })).statusCode).toBe(200);
  });

  it("refuses a request straight to execute-api (no secret, a wrong one, a longer one) with a JSON 403 naming the public URL", async () => {
    for (const secret of [null, "guess", `${SECRET}x`, SECRET.toUpperCase()]) {
      const result = await call({ method: "GET", url: "/tools/text-stats" }, secret);
      expect(result.statusCode, String(secret)).toBe(403);
      expect(JSON.parse(result.body)).toEqual({ error: "Forbidden", detail: expect.stringContaining(PUBLIC_URL) });
    }
  });

  it("guards the write routes the same way", async () => {
    const upload = createLambdaHandler("upload", {
      env: {
        ...storageEnv(registry),
        ORIGIN_VERIFY_SECRET: SECRET,
        REGISTRY_TOKEN_SHA256: createHash("sha256").update(registry.token).digest("hex"),
      },
    }) as unknown as Handler;
    const bare = await upload(
      apiGatewayEvent({ method: "DELETE", url: "/tools/text-stats", headers: { authorization: `Bearer ${registry.token}` } }),
    );
    expect(bare.statusCode).toBe(403); // nothing deleted: the request never reached the app
    expect((await call({ method: "GET", url: "/tools/text-stats" })).statusCode).toBe(200);
  });
});

describe("public reads at the edge", () => {
  const behindEdge = () =>
    createLambdaHandler("fetch", {
      env: { ...storageEnv(registry), ORIGIN_VERIFY_SECRET: SECRET, PUBLIC_URL, ARCHIVE_DELIVERY: "cdn", EDGE_CACHE_SECONDS: "10" },
    }) as unknown as Handler;
  const EDGE_CACHED = "public, max-age=0, s-maxage=10";

  it("lets CloudFront keep entries, versions and listings for EDGE_CACHE_SECONDS, clients revalidating by ETag at once", async () => {
    const handler = behindEdge();
    const get = (url: string, headers: Record<string, string> = {}) =>
      handler(apiGatewayEvent({ method: "GET", url, headers: { ...headers, [ORIGIN_VERIFY_HEADER]: SECRET } }));
    const entry = await get("/tools/text-stats");
    expect(entry.statusCode).toBe(200);
    expect(entry.headers?.["cache-control"]).toBe(EDGE_CACHED);
    // What CloudFront sends when its copy is stale: the copy's ETag, answered 304 with the same rule.
    const revalidated = await get("/tools/text-stats", { "if-none-match": entry.headers!.etag! });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers?.["cache-control"]).toBe(EDGE_CACHED);
    for (const url of ["/tools", "/tools/text-stats/versions", "/tools/text-stats/versions/1.0.0", "/tools/query/by-tag?tag=text", "/"]) {
      const answer = await get(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers?.["cache-control"], url).toBe(EDGE_CACHED);
    }
    const search = createLambdaHandler("search", {
      env: { ...storageEnv(registry), ORIGIN_VERIFY_SECRET: SECRET, PUBLIC_URL, EDGE_CACHE_SECONDS: "10" },
    }) as unknown as Handler;
    const results = await search(
      apiGatewayEvent({ method: "GET", url: "/tools/search?q=words", headers: { [ORIGIN_VERIFY_HEADER]: SECRET } }),
    );
    expect(results.statusCode).toBe(200);
    expect(results.headers?.["cache-control"]).toBe(EDGE_CACHED);
  });

  it("keeps nothing without a shared cache in front (the local server)", async () => {
    const entry = await fetch(`${registry.url}/tools/text-stats`);
    expect(entry.headers.get("cache-control")).toBe("no-cache");
    expect(entry.headers.get("etag")).toBeTruthy();
  });
});

describe("the client's address behind the distribution", () => {
  const upload = () =>
    createLambdaHandler("upload", {
      env: {
        ...storageEnv(registry),
        ORIGIN_VERIFY_SECRET: SECRET,
        REGISTRY_TOKEN_SHA256: createHash("sha256").update(registry.token).digest("hex"),
      },
    }) as unknown as Handler;
  const admin = () => ({ authorization: `Bearer ${registry.token}` });
  /** A refused write (an unknown tool) audited from `viewer`, and the client the audit log then names for it. */
  async function auditedClient(handler: Handler, viewer: string | undefined, secret: string | null = SECRET): Promise<string> {
    const headers = {
      ...admin(),
      ...(viewer === undefined ? {} : { "cloudfront-viewer-address": viewer }),
      ...(secret === null ? {} : { [ORIGIN_VERIFY_HEADER]: secret }),
    };
    const toolId = `ghost-${Math.random().toString(36).slice(2, 10)}`;
    expect((await handler(apiGatewayEvent({ method: "DELETE", url: `/tools/${toolId}`, headers }))).statusCode).toBe(404);
    const audit = await handler(
      apiGatewayEvent({ method: "GET", url: "/audit?limit=20", headers: { ...admin(), [ORIGIN_VERIFY_HEADER]: SECRET } }),
    );
    const events = (JSON.parse(audit.body) as { events: { tool_id?: string; client: string }[] }).events;
    return events.find((event) => event.tool_id === toolId)!.client;
  }

  it("records the viewer address CloudFront wrote, IPv4 and IPv6, not the edge server's", async () => {
    const handler = upload();
    expect(await auditedClient(handler, "203.0.113.7:51023")).toBe("203.0.113.7");
    expect(await auditedClient(handler, "2001:db8:85a3::8a2e:370:7334:443")).toBe("2001:db8:85a3::8a2e:370:7334");
  });

  it("falls back to the peer for a header that is no address and port", async () => {
    const handler = upload();
    for (const bogus of ["203.0.113.7", "evil.example:443", "203.0.113.7:port", ":443", "999.1.1.1:80"])
      expect(await auditedClient(handler, bogus), bogus).toBe("192.0.2.1"); // the event's sourceIp
  });

  it(
    "believes the header only with the distribution's secret: a client " + "writing it to the local server is recorded by its own address",
    async () => {
      const response = await fetch(`${registry.url}/tools/ghost-direct`, {
        method: "DELETE",
        headers: { ...admin(), "cloudfront-viewer-address": "203.0.113.99:443", [ORIGIN_VERIFY_HEADER]: "guess" },
      });
      expect(response.status).toBe(404);
      const events = (
        (await (await fetch(`${registry.url}/audit?limit=20`, { headers: admin() })).json()) as { events: Record<string, string>[] }
      ).events;
      expect(events.find((event) => event.tool_id === "ghost-direct")?.client).toBe("127.0.0.1");
    },
  );

  it("tells CloudFront and browsers never to store admin reads", async () => {
    const audit = await upload()(
      apiGatewayEvent({ method: "GET", url: "/audit", headers: { ...admin(), [ORIGIN_VERIFY_HEADER]: SECRET } }),
    );
    expect(audit.statusCode).toBe(200);
    expect(audit.headers?.["cache-control"]).toBe("private, no-store");
    const tokens = await fetch(`${registry.url}/tokens`, { headers: admin() });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get("cache-control")).toBe("private, no-store");
  });
});

describe("archive delivery through the distribution", () => {
  const sha256 = () => createHash("sha256").update(textStats.toolZip).digest("hex");

  it("redirects a version's archive to its content address, revalidated (a deleted version can return with other bytes)", async () => {
    const result = await call({ method: "GET", url: "/tools/text-stats/versions/1.0.0/archive" });
    expect(result.statusCode).toBe(302);
    expect(result.headers?.location).toBe(`${PUBLIC_URL}/archives/${sha256()}`);
    expect(result.headers?.["cache-control"]).toBe("no-cache");
  });

  it("redirects the latest archive the same way, revalidated each time", async () => {
    const result = await call({ method: "GET", url: "/tools/text-stats/archive" });
    expect(result.headers?.location).toBe(`${PUBLIC_URL}/archives/${sha256()}`);
    expect(result.headers?.["cache-control"]).toBe("no-cache");
  });

  it("is refused without the PUBLIC_URL it redirects to", () => {
    expect(() => createLambdaHandler("fetch", { env: { ...storageEnv(registry), ARCHIVE_DELIVERY: "cdn" } })).toThrow(/needs PUBLIC_URL/);
  });
});
