// Every storage call has retries with backoff and a request timeout: a throttle that passes is
// retried away, one that persists and a call that hangs become 503 with Retry-After
// (docs/durability.md, "Storage failures"). A proxy on 127.0.0.1 in front of the registry's
// real DynamoDB emulator throttles or stalls requests on demand.
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRegistryApp } from "../../../functions/app.js";
import { rejectAllTokens } from "../../../functions/auth/token-verifier.js";
import { createRegistryDeps } from "../../../functions/registry-deps.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";

type Fault = "throttle" | "stall";

let registry: TestRegistry;
let proxy: Server;
let proxyUrl: string;
/** What the next requests through the proxy meet; each entry is used once, then requests pass. */
let faults: Fault[] = [];
let persistent: Fault | undefined;
let requests = 0;

function misbehave(incoming: IncomingMessage, answer: ServerResponse): void {
  requests++;
  const fault = faults.shift() ?? persistent;
  if (fault === "stall") return; // never answers: the SDK's request timeout must end it
  if (fault === "throttle") {
    incoming.resume();
    answer.writeHead(400, { "content-type": "application/x-amz-json-1.0", "x-amzn-errortype": "ThrottlingException" });
    answer.end(
      JSON.stringify({
        __type: "com.amazonaws.dynamodb.v20120810#ThrottlingException",
        message: "Rate of requests exceeds the allowed throughput.",
      }),
    );
    return;
  }
  const target = new URL(registry.local.config.dynamodbEndpoint!);
  const upstream = forward(
    { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
    (response) => {
      answer.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(answer);
    },
  );
  upstream.once("error", () => answer.destroy());
  incoming.pipe(upstream);
}

/**
 * A fetch-and-publish app whose DynamoDB calls all go through the proxy. The request timeout is
 * short only where a stall is the point: on a loaded machine a healthy call can take longer than
 * 300 ms, and a throttle test must not fail by timing out the call that passes.
 */
function appBehindProxy(storageTimeoutMs = 10_000) {
  const config = {
    ...registry.local.config,
    dynamodbEndpoint: proxyUrl,
    storageMaxAttempts: 3,
    storageTimeoutMs,
    cacheRevalidateMs: 0,
  };
  return createRegistryApp(createRegistryDeps(config, rejectAllTokens));
}

beforeAll(async () => {
  registry = await startTestRegistry();
  expect((await uploadBundle(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle)).status).toBe(200);
  proxy = createServer(misbehave);
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
  await registry?.close();
});

describe("storage faults", () => {
  it("retries throttled calls with backoff, and the client never sees a throttle that passed", async () => {
    faults = ["throttle", "throttle"];
    persistent = undefined;
    const response = await appBehindProxy().request("/tools/text-stats");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { tool_id: string }).tool_id).toBe("text-stats");
    expect(faults).toEqual([]);
  });

  it("answers 503 with Retry-After when throttling persists, after the configured attempts", async () => {
    persistent = "throttle";
    requests = 0;
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const response = await appBehindProxy().request("/tools/text-stats");
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
      expect(((await response.json()) as { error: string }).error).toBe("Storage unavailable");
      // Each storage call the route made was tried 3 times (storageMaxAttempts), no more.
      expect(requests).toBeGreaterThanOrEqual(3);
      expect(requests % 3).toBe(0);
    } finally {
      log.mockRestore();
      persistent = undefined;
    }
  });

  it("ends a call that never answers by its request timeout, as 503", async () => {
    persistent = "stall";
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      // Without a request timeout this would wait for ever (the test's own timeout would end it).
      const response = await appBehindProxy(300).request("/tools/text-stats");
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("1");
    } finally {
      log.mockRestore();
      persistent = undefined;
      proxy.closeAllConnections();
    }
  });
});
