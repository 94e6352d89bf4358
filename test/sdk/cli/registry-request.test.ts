import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { RegistryError } from "@agent-tools/sdk";
import { registryRequest } from "../../../sdk/src/publish/registry-request.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A loopback server that drops the connection of the first `drops` requests without answering. */
async function flakyServer(drops: number): Promise<{ url: string; seen: () => number }> {
  let seen = 0;
  server = createServer((request, response) => {
    seen += 1;
    if (seen <= drops) return request.socket.destroy();
    response.writeHead(seen === drops + 1 ? 200 : 500, { "content-type": "application/json" });
    response.end(JSON.stringify({ ok: true, authorization: request.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen: () => seen };
}

describe("registryRequest", () => {
  it("sends a request once more when its connection died unanswered", async () => {
    const flaky = await flakyServer(1);
    const body = await registryRequest<{ ok: boolean; authorization: string }>(
      { registryUrl: flaky.url, token: "t0k" },
      "POST",
      "/tools/uploads",
      "{}",
    );
    expect(body).toEqual({ ok: true, authorization: "Bearer t0k" });
    expect(flaky.seen()).toBe(2);
  });

  it("gives up after the second dropped connection, naming the request", async () => {
    const flaky = await flakyServer(2);
    await expect(registryRequest({ registryUrl: flaky.url }, "GET", "/tools/x")).rejects.toThrow(
      /Registry unavailable at .*: GET \/tools\/x: UND_ERR_SOCKET/,
    );
    expect(flaky.seen()).toBe(2);
  });

  it("turns an error body into a RegistryError with error and detail", async () => {
    server = createServer((_request, response) => {
      response.writeHead(422, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: "Failed to process tool package", detail: "tool_id is missing" }));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const error = await registryRequest({ registryUrl: url }, "GET", "/x").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ status: 422, error: "Failed to process tool package", detail: "tool_id is missing" });
  });
});
