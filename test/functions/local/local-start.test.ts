// Starting the embedded registry: a failed first start stores no token hash (so the next start
// still shows a fresh token), a wildcard host is reported as such, with the URLs to use, and page
// cursors are signed with a secret of the data folder's own.
import { existsSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURSOR_KEY_FILE } from "../../../functions/local/cursor-key.js";
import { listeningBanner } from "../../../functions/local/listening-banner.js";
import { startLocalRegistry } from "../../../functions/local/start-local-registry.js";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, uploadBundle } from "../../support/registry.js";

let dataDir: string;
let busy: Server;
let busyPort: number;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agent-tools-local-start-"));
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  await rm(dataDir, { recursive: true, force: true });
});

describe("the local registry's start", () => {
  it("stores no token hash when the port is in use, so the next start generates and shows one", async () => {
    await expect(startLocalRegistry({ dataDir, port: busyPort })).rejects.toMatchObject({ code: "EADDRINUSE" });
    expect(existsSync(join(dataDir, "write-token.sha256"))).toBe(false);

    const registry = await startLocalRegistry({ dataDir, port: 0 });
    try {
      expect(registry.tokenSource).toBe("generated");
      expect(registry.token).toMatch(/^[\w-]{40,}$/);
      expect(existsSync(registry.tokenHashFile)).toBe(true);
    } finally {
      await registry.close();
    }
  });

  it("says a wildcard host serves every interface, and which URL to use from this machine", async () => {
    const registry = await startLocalRegistry({ dataDir: join(dataDir, "wildcard"), port: 0, host: "0.0.0.0", token: "t" });
    try {
      const banner = listeningBanner(registry);
      expect(banner).toMatch(
        new RegExp(
          `^Agent Tools registry listening on http://127\\.0\\.0\\.1:${registry.port} ` +
            `\\(this machine\\), on every interface \\(0\\.0\\.0\\.0\\)`,
        ),
      );
      expect((await fetch(`${registry.url}/health`)).status).toBe(200);
    } finally {
      await registry.close();
    }
    expect(
      listeningBanner({
        url: "http://127.0.0.1:6000",
        host: "127.0.0.1",
        port: 6000,
        catalogueUrl: "http://127.0.0.1:6080/",
        sdkFile: "agent-tools-sdk-0.1.0.tgz",
      }),
    ).toBe(
      [
        "Agent Tools registry listening on http://127.0.0.1:6000",
        "Catalogue (open in a browser): http://127.0.0.1:6080/ (browsers refuse port 6000)",
        "SDK and CLI for any project: npm install http://127.0.0.1:6000/sdk/agent-tools-sdk-0.1.0.tgz",
      ].join("\n"),
    );
    expect(listeningBanner({ url: "http://127.0.0.1:8000", host: "127.0.0.1", port: 8000, catalogueUrl: "http://127.0.0.1:8000/" })).toBe(
      "Agent Tools registry listening on http://127.0.0.1:8000\nCatalogue (open in a browser): http://127.0.0.1:8000/",
    );
  });

  it("signs page cursors with a random secret of the data folder: kept across restarts, refused by every other registry", async () => {
    const folder = await mkdtemp(join(tmpdir(), "agent-tools-cursor-key-"));
    const other = await startTestRegistry();
    try {
      let registry = await startTestRegistry({ dataDir: folder });
      for (const toolId of ["cursor-a", "cursor-b"]) {
        const { bundle } = await fixtureBundle("text-stats", { spec: { tool_id: toolId } });
        expect((await uploadBundle(registry.url, registry.token, bundle)).status).toBe(200);
      }
      const next = new URL(/<([^>]+)>; rel="next"/.exec((await fetch(`${registry.url}/tools?limit=1`)).headers.get("link") ?? "")![1]!);
      expect(statSync(join(folder, CURSOR_KEY_FILE)).mode & 0o777).toBe(0o600);
      await registry.close();
      registry = await startTestRegistry({ dataDir: folder });
      try {
        const page = await fetch(`${registry.url}/tools${next.search}`);
        expect(page.status).toBe(200);
        expect(((await page.json()) as { tool_id: string }[]).map((entry) => entry.tool_id)).toEqual(["cursor-b"]);
      } finally {
        await registry.close();
      }
      // Same table and bucket names, another folder: another secret.
      const foreign = await fetch(`${other.url}/tools${next.search}`);
      expect(foreign.status).toBe(400);
      expect(((await foreign.json()) as { detail: string }).detail).toMatch(/^The cursor was not issued by this registry/);
    } finally {
      await other.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
