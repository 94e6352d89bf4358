// Archive delivery modes, public URLs, restarts, concurrent uploads and cross-instance caching.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createRegistryApp } from "../../../functions/app.js";
import { rejectAllTokens } from "../../../functions/auth/token-verifier.js";
import { createRegistryDeps } from "../../../functions/registry-deps.js";
import { buildBundle, FIXTURE_TOOLS_DIR, fixtureBundle, readFixtureSpec, zipFiles } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle, type TestRegistry } from "../../support/registry.js";
import { storageSnapshot } from "../storage/storage-snapshot.js";

describe("archive delivery", () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startTestRegistry({ archiveDelivery: "redirect", publicUrl: "https://tools.example.org/" });
  });
  afterAll(async () => {
    await registry?.close();
  });

  it("redirects to a short-lived presigned S3 URL that serves the exact bytes", async () => {
    const { bundle, toolZip } = await fixtureBundle("text-stats");
    expect((await uploadBundle(registry.url, registry.token, bundle)).status).toBe(200);
    const response = await fetch(`${registry.url}/tools/text-stats/versions/1.0.0/archive`, { redirect: "manual" });
    expect(response.status).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toMatch(/X-Amz-Expires=300/);
    const download = await fetch(location);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(toolZip))).toBe(true);
  });

  it("uses the configured public URL in tool_source_code_link", async () => {
    const entry = (await (await fetch(`${registry.url}/tools/text-stats`)).json()) as { tool_source_code_link: string };
    expect(entry.tool_source_code_link).toBe("https://tools.example.org/tools/text-stats/versions/1.0.0/archive");
  });
});

describe("one registry's storage", () => {
  let dataDir: string;
  let registry: TestRegistry;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "agent-tools-restart-"));
    registry = await startTestRegistry({ dataDir });
  });
  afterAll(async () => {
    await registry?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("lets exactly one of many concurrent uploads of the same new tool succeed, leaving no orphan", async () => {
    // Same id and version; three distinct archives, each shared by two uploads: the losers must
    // neither leave their own archive behind nor remove the one the winner references.
    const spec = { ...readFixtureSpec("text-stats"), tool_id: "racer" };
    const toolMd = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/tool.md"), "utf8");
    const functionPy = readFileSync(join(FIXTURE_TOOLS_DIR, "text-stats/code/function.py"));
    const bundles = Array.from({ length: 6 }, (_, i) => ({
      bundle: buildBundle({ spec, toolMd, toolZip: zipFiles({ "code/function.py": functionPy, "code/variant.txt": String(i % 3) }) }),
    }));
    const results = await Promise.all(bundles.map(({ bundle }) => uploadBundle(registry.url, registry.token, bundle)));
    // One release wins. Its identical twin is the same release: it answers 200 when it finds the
    // winner's publish still pending and completes it, 409 when it finds it finished (docs/durability.md).
    const winners = results.flatMap((result, i) => (result.status === 200 ? [i % 3] : []));
    expect(winners.length).toBeGreaterThanOrEqual(1);
    expect(new Set(winners).size).toBe(1);
    expect(winners.length).toBeLessThanOrEqual(2);
    for (const result of results.filter((r) => r.status !== 200)) {
      expect(result.status).toBe(409);
      expect(result.body.error).toBe("Failed to process tool package");
    }
    const snapshot = await storageSnapshot(registry.local);
    // The version, its pointer, and who owns the id (the admin, which published it first).
    expect(snapshot.items).toEqual(["#owners racer", "racer #latest", "racer 1.0.0"]);
    expect(snapshot.objects.filter((key) => /^archives\/[0-9a-f]{64}$/.test(key))).toHaveLength(1);
  });

  it("keeps every tool across a restart on the same data folder", async () => {
    const entryBefore = await (await fetch(`${registry.url}/tools/racer`)).json();
    await registry.close();
    registry = await startTestRegistry({ dataDir, token: registry.token });
    const entryAfter = (await (await fetch(`${registry.url}/tools/racer`)).json()) as Record<string, unknown>;
    expect({ ...entryAfter, tool_source_code_link: "" }).toEqual({ ...(entryBefore as object), tool_source_code_link: "" });
    const archive = await fetch(entryAfter.tool_source_code_link as string);
    expect(archive.status).toBe(200);
    expect((await fetch(`${registry.url}/tools`).then((r) => r.json())) as unknown[]).toHaveLength(1);
  });

  it("refuses a second registry on a data folder in use, naming the fix", async () => {
    await expect(startTestRegistry({ dataDir })).rejects.toThrow(/another registry \(pid \d+\) is using the data folder/);
  });

  it("lets another instance see writes once it revalidates its cache", async () => {
    // A second app over the same storage, as another Lambda instance would be.
    const other = createRegistryApp(createRegistryDeps({ ...registry.local.config, cacheRevalidateMs: 0 }, rejectAllTokens), {
      groups: ["fetch"],
    });
    const read = async () =>
      ((await (await other.request("/tools/racer")).json()) as { tool_search_description: string }).tool_search_description;
    await read();
    const update = await fetch(`${registry.url}/tools/racer`, {
      method: "PUT",
      headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
      body: JSON.stringify({ tool_search_description: "seen everywhere" }),
    });
    expect(update.status).toBe(200);
    expect(await read()).toBe("seen everywhere");
    // The fetch group alone has no write routes.
    expect((await other.request("/tools/racer", { method: "DELETE" })).status).toBe(405);
  });
});

describe("unexpected failures", () => {
  const unreachable = {
    region: "us-east-1",
    tableName: "agent-tools",
    bucketName: "agent-tools-archives",
    // Nothing listens on the discard port: every storage call fails after the SDK's retries.
    dynamodbEndpoint: "http://127.0.0.1:9",
    s3Endpoint: "http://127.0.0.1:9",
    credentials: { accessKeyId: "x", secretAccessKey: "x" },
    archiveDelivery: "proxy" as const,
    presignExpiresSeconds: 60,
    maxBundleBytes: 1024,
    cacheRevalidateMs: 0,
    storageMaxAttempts: 2,
  };

  it("answer 503 with Retry-After, without internals, when storage is unreachable", async () => {
    const app = createRegistryApp(createRegistryDeps(unreachable, rejectAllTokens));
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await app.request("/tools/anything");
    const text = await response.text();
    // The cause goes to the server's log, not to the client.
    expect(String(log.mock.calls[0]?.[1])).toMatch(/ECONNREFUSED/);
    log.mockRestore();
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(JSON.parse(text)).toEqual({ error: "Storage unavailable", detail: expect.stringMatching(/Retry in 1 s/) });
    expect(text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack|at /);
  });

  it("answer 500 JSON without internals for a bug", async () => {
    const app = createRegistryApp(createRegistryDeps(unreachable, rejectAllTokens), {
      extraRoutes: [
        (routes) =>
          routes.get("/boom", () => {
            throw new TypeError("secret internals at line 3");
          }),
      ],
    });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await app.request("/boom");
    log.mockRestore();
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: "Internal server error", detail: expect.stringMatching(/retry/) });
    expect(text).not.toMatch(/secret internals/);
  });
});
