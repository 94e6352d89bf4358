/**
 * Behind CloudFront the functions answer only requests carrying the distribution's origin secret
 * (so the execute-api endpoint cannot bypass the edge), and archive URLs redirect to the
 * distribution's content-addressed `/archives/<sha256>` (cached at the edge for versions).
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLambdaHandler } from "../../functions/lambda/create-lambda-handler.js";
import { ORIGIN_VERIFY_HEADER } from "../../functions/lambda/origin-verify.js";
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
