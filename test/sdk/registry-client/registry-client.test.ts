import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegistryClient, RegistryError, RegistryUnavailableError, ToolNotFoundError } from "@agent-tools/sdk";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { closedPortUrl } from "../support/closed-port.js";

let registry: TestRegistry;
let client: RegistryClient;

beforeAll(async () => {
  registry = await startTestRegistry();
  const uploads = [
    fixtureBundle("text-stats"),
    fixtureBundle("text-stats", { version: "1.2.0" }),
    fixtureBundle("binary-increment"),
    fixtureBundle("text-stats", { spec: { tool_id: "word-stats", tool_tags: ["words"] } }),
  ];
  for (const { bundle } of await Promise.all(uploads)) {
    expect((await uploadBundle(registry.url, registry.token, bundle)).status).toBe(200);
  }
  client = new RegistryClient(`${registry.url}/`, { timeoutMs: 5_000 });
});

afterAll(async () => {
  await registry?.close();
});

describe("RegistryClient", () => {
  it("gets the latest entry, one version, and all versions newest first", async () => {
    const latest = await client.getTool("text-stats");
    expect(latest).toMatchObject({ tool_id: "text-stats", version: "1.2.0", tool_runtime_type: "python" });
    expect(latest.tool_archive_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await client.getToolVersion("text-stats", "1.0.0")).version).toBe("1.0.0");
    expect((await client.listVersions("text-stats")).map((entry) => entry.version)).toEqual(["1.2.0", "1.0.0"]);
  });

  it("lists page by page with the Link header's cursor, and filters", async () => {
    const first = await client.listTools({ limit: 2 });
    expect(first.tools.map((tool) => tool.tool_id)).toEqual(["binary-increment", "text-stats"]);
    expect(first.nextCursor).toBeDefined();
    const second = await client.listTools({ limit: 2, ...(first.nextCursor ? { cursor: first.nextCursor } : {}) });
    expect(second.tools.map((tool) => tool.tool_id)).toEqual(["word-stats"]);
    expect(second.nextCursor).toBeUndefined();
    const all: string[] = [];
    for await (const tool of client.listAllTools({ limit: 1 })) all.push(tool.tool_id);
    expect(all).toEqual(["binary-increment", "text-stats", "word-stats"]);
    expect((await client.listTools({ tag: "words" })).tools.map((tool) => tool.tool_id)).toEqual(["word-stats"]);
  });

  it("downloads the exact archive bytes the entry's hash names", async () => {
    const entry = await client.getTool("binary-increment");
    const bytes = await client.downloadArchive(entry);
    const { createHash } = await import("node:crypto");
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(entry.tool_archive_sha256);
  });

  it("turns error bodies into typed errors that keep the registry's error and detail", async () => {
    const missing = await client.getTool("nope").catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(ToolNotFoundError);
    expect(missing).toMatchObject({ status: 404, toolId: "nope" });
    expect((missing as ToolNotFoundError).error).toBe("Tool not found");
    const badLimit = await client.listTools({ limit: 100_000 }).catch((caught: unknown) => caught);
    expect(badLimit).toBeInstanceOf(RegistryError);
    expect(badLimit).toMatchObject({ status: 400, error: "Invalid limit" });
    expect((badLimit as RegistryError).detail).toMatch(/limit must be an integer/);
    await expect(client.listTools({ cursor: "forged" })).rejects.toMatchObject({ status: 400, error: "Invalid cursor" });
  });

  it("refuses a versions answer that is not an array, rather than failing on it", async () => {
    const { createServer } = await import("node:http");
    const server = createServer((_, response) => response.writeHead(200, { "content-type": "application/json" }).end('{"versions":[]}'));
    await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
    try {
      const { port } = server.address() as { port: number };
      const refused = await new RegistryClient(`http://127.0.0.1:${port}`).listVersions("odd").catch((caught: unknown) => caught);
      expect(refused).toBeInstanceOf(RegistryError);
      expect(refused).toMatchObject({ error: "Invalid response from server", toolId: "odd" });
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });

  it("reports a closed port as unavailable, naming the URL and the cause", async () => {
    const url = await closedPortUrl();
    const error = await new RegistryClient(url).getTool("text-stats").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect((error as Error).message).toBe(
      `Registry unavailable at ${url}: ECONNREFUSED. Check that the registry is running and toolsDbUrl is right.`,
    );
  });
});
