// `agent-tools registry smoke` against a real local registry over HTTP (docs/deployment.md#smoke-test):
// every step passes on a working registry and cleans up after itself; behind a proxy that strips
// Authorization from GETs (what CloudFront does on a cached behaviour) it names the admin reads as
// the failure and still deletes its tool and revokes its token.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPublisherTokens } from "../../../sdk/src/publish/publisher-tokens.js";
import { runCli } from "../../../sdk/src/cli/run-cli.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;

beforeAll(async () => {
  registry = await startTestRegistry();
});
afterAll(() => registry?.close());

async function smoke(registryUrl: string, token: string): Promise<{ status: number; lines: string[][]; err: string }> {
  let out = "";
  let err = "";
  const status = await runCli(["registry", "smoke", "--registry", registryUrl, "--token", token, "--wait", "10"], {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    cwd: process.cwd(),
  });
  return {
    status,
    lines: out
      .trim()
      .split("\n")
      .map((line) => line.split("\t")),
    err,
  };
}

/** The smoke tool's id, read from the upload step's line. */
const smokeToolId = (lines: string[][]) => /published (smoke-[0-9a-f]+)@/.exec(lines.find((line) => line[1] === "upload")![3]!)![1]!;

async function expectCleanedUp(toolId: string): Promise<void> {
  expect((await fetch(`${registry.url}/tools/${toolId}`)).status).toBe(404);
  const tokens = await listPublisherTokens({ registryUrl: registry.url, token: registry.token });
  expect(tokens.find((token) => token.name === toolId)?.revoked_at).toBeDefined();
}

describe("registry smoke", () => {
  it("passes every step on a working registry, then deletes its tool and revokes its token", async () => {
    const { status, lines } = await smoke(registry.url, registry.token);
    expect(lines.map(([state, name]) => `${state!.trim()} ${name}`)).toEqual([
      "ok health",
      "ok publisher token",
      "ok upload",
      "ok fetch",
      "ok search",
      "ok listing",
      "ok catalogue page",
      "ok admin reads",
      "ok delete",
      "ok revoke",
    ]);
    expect(status).toBe(0);
    const toolId = smokeToolId(lines);
    expect(lines.find((line) => line[1] === "admin reads")![3]).toContain("127.0.0.1");
    await expectCleanedUp(toolId);
  });

  it("stops at the publisher token with a wrong admin token, uploading nothing", async () => {
    const { status, lines, err } = await smoke(registry.url, "not-the-admin-token");
    expect(lines.map(([state, name]) => `${state!.trim()} ${name}`)).toEqual(["ok health", "FAIL publisher token"]);
    expect(lines[1]![3]).toMatch(/401|token/i);
    expect(status).toBe(1);
    expect(err).toMatch(/smoke check failed at: publisher token/);
  });

  describe("behind a proxy that drops Authorization from GET and HEAD (CloudFront's cached behaviour)", () => {
    let proxy: Server;
    let proxyUrl: string;

    beforeAll(async () => {
      proxy = createServer(async (request, response) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers))
          if (typeof value === "string" && name !== "host" && name !== "connection") headers.set(name, value);
        if (request.method === "GET" || request.method === "HEAD") headers.delete("authorization");
        const chunks: Buffer[] = [];
        for await (const chunk of request) chunks.push(chunk as Buffer);
        const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
        const answer = await fetch(`${registry.url}${request.url}`, { method: request.method, headers, body, redirect: "manual" });
        response.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([name]) => name !== "content-encoding")));
        response.end(Buffer.from(await answer.arrayBuffer()));
      });
      await new Promise<void>((listening) => proxy.listen(0, "127.0.0.1", listening));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((closed) => proxy.close(() => closed())));

    it("fails at the admin reads and still cleans up", async () => {
      const { status, lines } = await smoke(proxyUrl, registry.token);
      const failed = lines.filter(([state]) => state!.trim() === "FAIL").map(([, name]) => name);
      expect(failed).toEqual(["admin reads"]);
      expect(lines.find((line) => line[1] === "admin reads")![3]).toMatch(/401|token/i);
      expect(lines.map(([, name]) => name).slice(-2)).toEqual(["delete", "revoke"]);
      expect(status).toBe(1);
      await expectCleanedUp(smokeToolId(lines));
    });
  });
});
