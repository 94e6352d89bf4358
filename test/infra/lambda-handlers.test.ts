/**
 * The three Lambda entry points, invoked with API Gateway HTTP API events against the emulators
 * (dynalite + s3rver) and a loopback Secrets Manager, give the same answers as the local server
 * for the same requests.
 */
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LambdaEvent } from "hono/aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../functions/config.js";
import { createLambdaHandler } from "../../functions/lambda/create-lambda-handler.js";
import { startEmulators, type Emulators } from "../../functions/local/emulators.js";
import { provisionStorage } from "../../functions/local/provision-storage.js";
import { fixtureBundle, type FixtureBundle } from "../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../support/registry.js";
import { API_DOMAIN, apiGatewayEvent, multipartBundle, type EventInput } from "../support/api-gateway-event.js";
import { startFakeSecretsManager, type FakeSecretsManager } from "./fake-secrets-manager.js";

type Handler = (
  event: LambdaEvent,
) => Promise<{ statusCode: number; headers?: Record<string, string>; body: string; isBase64Encoded: boolean }>;

const SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:AgentToolsWriteToken-x1y2z3";
const TOKEN = "deployed-write-token";
const CURSOR_SECRET_ARN = "arn:aws:secretsmanager:us-east-1:123456789012:secret:AgentToolsCursorKey-a1b2c3";

let dataDir: string;
let emulators: Emulators;
let secrets: FakeSecretsManager;
let local: TestRegistry;
let handlers: { upload: Handler; fetch: Handler; search: Handler };
let textStats: FixtureBundle;
let binary: FixtureBundle;
const savedEnv = { ...process.env };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-lambda-"));
  [emulators, secrets, local, textStats, binary] = await Promise.all([
    startEmulators(dataDir),
    startFakeSecretsManager({ [SECRET_ARN]: TOKEN, [CURSOR_SECRET_ARN]: "deployment-cursor-key" }),
    startTestRegistry({ token: TOKEN }),
    fixtureBundle("text-stats"),
    fixtureBundle("binary-increment"),
  ]);
  // What the stack sets, plus the emulator endpoints the deployed functions do not need.
  Object.assign(process.env, {
    AWS_REGION: "us-east-1",
    AWS_LAMBDA_FUNCTION_NAME: "registry-test",
    TABLE_NAME: "agent-tools-lambda",
    BUCKET_NAME: "agent-tools-lambda",
    ARCHIVE_DELIVERY: "redirect",
    TOKEN_SECRET_ARN: SECRET_ARN,
    CURSOR_SECRET_ARN,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    S3_ENDPOINT: emulators.s3Endpoint,
    DYNAMODB_ENDPOINT: emulators.dynamodbEndpoint,
    AWS_ACCESS_KEY_ID: emulators.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: emulators.credentials.secretAccessKey,
    CACHE_REVALIDATE_MS: "0",
  });
  await provisionStorage(loadConfig(process.env));
  const [upload, fetchEntry, search] = await Promise.all([
    import("../../functions/lambda/upload.js"),
    import("../../functions/lambda/fetch.js"),
    import("../../functions/lambda/search.js"),
  ]);
  handlers = {
    upload: upload.handler as unknown as Handler,
    fetch: fetchEntry.handler as unknown as Handler,
    search: search.handler as unknown as Handler,
  };
});

afterAll(async () => {
  process.env = savedEnv;
  await Promise.allSettled([emulators?.close(), secrets?.close(), local?.close()]);
  await rm(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Sends the same request to a Lambda handler (as an API Gateway event) and to the local server. */
async function both(handler: keyof typeof handlers, input: EventInput): Promise<{ lambda: Answer; server: Answer }> {
  const result = await handlers[handler](apiGatewayEvent(input));
  const text = result.isBase64Encoded ? Buffer.from(result.body, "base64").toString("utf8") : result.body;
  const lambda = { status: result.statusCode, body: parse(text), headers: result.headers ?? {} };
  const response = await fetch(`${local.url}${input.url}`, {
    method: input.method,
    headers: input.headers,
    ...(input.body === undefined ? {} : { body: input.body as Uint8Array<ArrayBuffer> }),
    redirect: "manual",
  });
  const server = { status: response.status, body: parse(await response.text()), headers: Object.fromEntries(response.headers) };
  return { lambda, server };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Per-deployment fields differ by nature: publication time and the origin in the archive link. */
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => {
      if (key === "published_at" || key === "updated_at") return [key, "<time>"];
      if (key === "tool_source_code_link" && typeof field === "string") return [key, new URL(field).pathname];
      return [key, normalise(field)];
    }),
  );
}

async function uploadRequest(bundle: Uint8Array, token = TOKEN): Promise<EventInput> {
  const { body, contentType } = await multipartBundle(bundle, "text-stats-bundle.zip");
  return {
    method: "POST",
    url: "/tools/upload",
    routeKey: "POST /tools/upload",
    headers: { "content-type": contentType, authorization: `Bearer ${token}` },
    body,
  };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("upload function", () => {
  it("publishes a base64 multipart upload with the token from Secrets Manager, like the local server", async () => {
    for (const bundle of [textStats.bundle, binary.bundle]) {
      const { lambda, server } = await both("upload", await uploadRequest(bundle));
      expect(lambda.status).toBe(200);
      expect(lambda.body).toEqual(server.body);
    }
    expect(secrets.reads).toBe(1); // cached for the container (the cursor key is read when a cursor is first needed)
  });

  it("refuses a wrong token and a duplicate version with the local server's answers", async () => {
    const wrong = await both("upload", await uploadRequest(textStats.bundle, "not-the-token"));
    expect(wrong.lambda.status).toBe(401);
    expect(wrong.lambda.body).toEqual(wrong.server.body);

    const duplicate = await both("upload", await uploadRequest(textStats.bundle));
    expect(duplicate.lambda.status).toBe(409);
    expect(duplicate.lambda.body).toEqual(duplicate.server.body);
  });

  it("publishes a large bundle through a presigned PUT and /complete", async () => {
    const { bundle } = await fixtureBundle("text-stats", { version: "1.1.0" });
    const auth = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
    const start = await handlers.upload(
      apiGatewayEvent({
        method: "POST",
        url: "/tools/uploads",
        routeKey: "POST /tools/uploads",
        headers: auth,
        body: JSON.stringify({ size: bundle.byteLength }),
      }),
    );
    expect(start.statusCode).toBe(201);
    const ticket = JSON.parse(start.body) as { uploadId: string; uploadUrl: string; completeUrl: string };
    expect(ticket.completeUrl).toBe(`https://${API_DOMAIN}/tools/uploads/${ticket.uploadId}/complete`);
    expect((await fetch(ticket.uploadUrl, { method: "PUT", body: bundle })).status).toBe(200);

    const completeRoute = {
      method: "POST",
      url: new URL(ticket.completeUrl).pathname,
      routeKey: "POST /tools/uploads/{uploadId}/complete",
      headers: auth,
    };
    const done = await handlers.upload(apiGatewayEvent(completeRoute));
    expect([done.statusCode, JSON.parse(done.body)]).toEqual([
      200,
      { message: "Tool uploaded successfully", tool_id: "text-stats", version: "1.1.0" },
    ]);
    expect((await handlers.upload(apiGatewayEvent(completeRoute))).statusCode).toBe(404);

    // Keep the local server's catalog identical for the comparisons below.
    expect((await both("upload", await uploadRequest(bundle))).server.status).toBe(200);
  });
});

describe("fetch function", () => {
  it("returns the same entries, lists and versions as the local server", async () => {
    for (const url of [
      "/tools/text-stats",
      "/tools/binary-increment",
      "/tools",
      "/tools?limit=1",
      "/tools/text-stats/versions",
      "/tools/text-stats/versions/1.0.0",
      "/tools/query/by-tag?tag=nlp",
      "/health",
    ]) {
      const { lambda, server } = await both("fetch", { method: "GET", url });
      expect(lambda.status, url).toBe(200);
      expect(normalise(lambda.body), url).toEqual(normalise(server.body));
    }
  });

  it(
    "signs cursors with the deployment's key from Secrets Manager: " + "another instance follows them, another registry refuses them",
    async () => {
      const first = await handlers.fetch(apiGatewayEvent({ method: "GET", url: "/tools?limit=1" }));
      const next = new URL(/<([^>]+)>; rel="next"/.exec(first.headers?.link ?? "")![1]!);
      // A second container of the same function: its own caches, and its own read of the secret.
      const readsBefore = secrets.reads;
      const other = createLambdaHandler("fetch") as unknown as Handler;
      const second = await other(apiGatewayEvent({ method: "GET", url: `${next.pathname}${next.search}` }));
      expect(second.statusCode).toBe(200);
      expect((JSON.parse(second.body) as { tool_id: string }[]).map((entry) => entry.tool_id)).toEqual(["text-stats"]);
      expect(secrets.reads).toBe(readsBefore + 1);
      // The same position signed by the local server's (per data folder) key belongs to another registry.
      const foreign = await fetch(`${local.url}/tools${next.search}`);
      expect(foreign.status).toBe(400);
      expect(((await foreign.json()) as { error: string }).error).toBe("Invalid cursor");
    },
  );

  it("redirects archive downloads to a presigned URL that serves the exact bytes", async () => {
    for (const [url, toolZip] of [
      ["/tools/text-stats/versions/1.0.0/archive", textStats.toolZip],
      ["/tools/binary-increment/archive", binary.toolZip],
    ] as const) {
      const { lambda, server } = await both("fetch", { method: "GET", url });
      expect(lambda.status, url).toBe(302);
      const location = lambda.headers.location!;
      expect(new URL(location).searchParams.get("X-Amz-Signature")).toBeTruthy();
      const downloaded = new Uint8Array(await (await fetch(location)).arrayBuffer());
      expect(sha256(downloaded), url).toBe(sha256(toolZip));
      expect(server.status).toBe(200); // the local server proxies the same bytes
    }
  });

  it("answers JSON 404s like the local server, for unknown tools, versions and paths", async () => {
    for (const url of ["/tools/no-such-tool", "/tools/text-stats/versions/9.9.9", "/tools/no-such-tool/archive", "/nowhere"]) {
      const { lambda, server } = await both("fetch", { method: "GET", url });
      expect(lambda.status, url).toBe(404);
      expect(lambda.headers["content-type"]).toMatch(/^application\/json/);
      expect(lambda.body, url).toEqual(server.body);
    }
  });
});

describe("search function", () => {
  it("ranks the same results as the local server", async () => {
    for (const url of ["/tools/search?q=count%20words", "/tools/search?q=increment", "/tools/search?q=zzzz-nothing"]) {
      const { lambda, server } = await both("search", { method: "GET", url, routeKey: "GET /tools/search" });
      expect(lambda.status, url).toBe(200);
      expect(normalise(lambda.body), url).toEqual(normalise(server.body));
    }
    const found = (await both("search", { method: "GET", url: "/tools/search?q=count%20words" })).lambda.body as {
      results: { tool_id: string }[];
    };
    expect(found.results[0]?.tool_id).toBe("text-stats");
  });

  it("never accepts writes", async () => {
    const result = await handlers.search(apiGatewayEvent(await uploadRequest(textStats.bundle)));
    expect([404, 405]).toContain(result.statusCode);
  });
});

describe("delete through the upload function", () => {
  it("removes the tool for both, and the fetch function then answers 404", async () => {
    const request = {
      method: "DELETE",
      url: "/tools/binary-increment",
      routeKey: "DELETE /tools/{id}",
      headers: { authorization: `Bearer ${TOKEN}` },
    };
    const { lambda, server } = await both("upload", request);
    expect(lambda.status).toBe(200);
    expect(normalise(lambda.body)).toEqual(normalise(server.body));
    const after = await both("fetch", { method: "GET", url: "/tools/binary-increment" });
    expect(after.lambda.status).toBe(404);
    expect(after.lambda.body).toEqual(after.server.body);
  });
});
