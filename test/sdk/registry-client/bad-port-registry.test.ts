/**
 * The registry's default port, 6000, is one the Fetch standard blocks ("bad port"), and Node's fetch
 * refuses it before connecting. The SDK must still reach a registry there: these tests serve the real
 * registry on such a port (the first free one of a few, 6000 may be busy) and use the SDK against it.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentTools, RegistryClient, RegistryUnavailableError, ToolNotFoundError } from "@agent-tools/sdk";
import { deleteTool } from "../../../sdk/src/publish/delete-tool.js";
import { packTool } from "../../../sdk/src/publish/pack-tool.js";
import { uploadBundle } from "../../../sdk/src/publish/upload-bundle.js";
import { isFetchBadPort, registryFetch } from "../../../sdk/src/registry-client/registry-fetch.js";
import { FIXTURE_TOOLS_DIR } from "../../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { TempDirs } from "../support/temp-dirs.js";

const BLOCKED_PORTS = [6000, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080, 6566, 4190, 3659];

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function freeBlockedPort(): Promise<number> {
  for (const port of BLOCKED_PORTS) if (await isFree(port)) return port;
  throw new Error(`none of the fetch-blocked ports ${BLOCKED_PORTS.join(", ")} is free on 127.0.0.1`);
}

const temp = new TempDirs();
let proxied: TestRegistry;
let redirecting: TestRegistry;

beforeAll(async () => {
  // On a port browsers refuse the catalogue gets a port of its own (6080 by default): any free one
  // here, so the two registries (and other test files) do not contend for it.
  proxied = await startTestRegistry({ port: await freeBlockedPort(), webPort: 0 });
  redirecting = await startTestRegistry({ port: await freeBlockedPort(), webPort: 0, archiveDelivery: "redirect" });
});

afterAll(async () => {
  await proxied?.close();
  await redirecting?.close();
  await temp.removeAll();
});

describe("a registry on a port Node's fetch refuses", () => {
  it("is such a port: the bare global fetch fails with 'bad port'", async () => {
    expect(isFetchBadPort(new URL(proxied.url))).toBe(true);
    await expect(fetch(`${proxied.url}/health`)).rejects.toMatchObject({ cause: { message: "bad port" } });
  });

  it("publishes, runs and deletes a tool through the SDK", async () => {
    const { bundle } = await packTool(join(FIXTURE_TOOLS_DIR, "text-stats"));
    const published = await uploadBundle(bundle, { registryUrl: proxied.url, token: proxied.token });
    expect(published).toMatchObject({ tool_id: "text-stats", version: "1.0.0", via: "upload" });

    const tools = new AgentTools({ toolsDbUrl: proxied.url, cacheDir: await temp.make() });
    try {
      const result = await tools.executeToolById("text-stats", { text: "b a b" });
      expect(result).toEqual({ word_count: 3, unique_words: 2, top_words: ["b", "a"] });
    } finally {
      await tools.close();
    }

    const client = new RegistryClient(proxied.url);
    expect((await client.searchTools({ q: "count words" })).map((hit) => hit.tool_id)).toEqual(["text-stats"]);
    await deleteTool("text-stats", { registryUrl: proxied.url, token: proxied.token });
    await expect(client.getTool("text-stats")).rejects.toBeInstanceOf(ToolNotFoundError);
  });

  it("uploads through the presigned path and follows the archive redirect to storage", async () => {
    const { bundle } = await packTool(join(FIXTURE_TOOLS_DIR, "text-stats"));
    const published = await uploadBundle(bundle, { registryUrl: redirecting.url, token: redirecting.token, via: "presigned" });
    expect(published).toMatchObject({ tool_id: "text-stats", via: "presigned" });
    const client = new RegistryClient(redirecting.url);
    const entry = await client.getTool("text-stats");
    const redirect = await registryFetch(client.archiveUrl(entry), { redirect: "manual" });
    expect(redirect.status).toBe(302);
    const bytes = await client.downloadArchive(entry);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(entry.tool_archive_sha256);
  });

  it("reports a registry that is down on such a port as unavailable, with the socket error", async () => {
    const port = await freeBlockedPort();
    const client = new RegistryClient(`http://127.0.0.1:${port}`);
    const error = await client.getTool("text-stats").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect((error as Error).message).toContain("ECONNREFUSED");
  });
});
