/**
 * The catalogue on a port browsers open: the installed chromium refuses every port of the list
 * (and not the catalogue's default), the rules pick the catalogue's port from the API's, and
 * `npm start` with its API on a port browsers refuse prints a second URL that chromium opens.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browsersRefuse, DEFAULT_CATALOGUE_PORT, separateCataloguePort } from "../../../functions/local/browser-ports.js";
import { launchBrowser, openTab } from "../../support/browser.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
let browser: Browser;
let dataDir: string;
let started: ChildProcess | undefined;

beforeAll(async () => {
  [browser, dataDir] = await Promise.all([launchBrowser(), mkdtemp(join(tmpdir(), "agent-tools-catalogue-port-"))]);
});
afterAll(async () => {
  if (started?.pid !== undefined && started.exitCode === null) {
    const closed = new Promise((resolve) => started!.once("close", resolve));
    process.kill(-started.pid, "SIGTERM");
    await closed;
  }
  await browser?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** How chromium ends a navigation to `url`: "loaded", or its net error (e.g. net::ERR_UNSAFE_PORT). */
async function navigation(page: import("playwright-core").Page, url: string): Promise<string> {
  try {
    await page.goto(url, { timeout: 10_000 });
    return "loaded";
  } catch (error) {
    return /net::ERR_[A-Z_]+/.exec((error as Error).message)?.[0] ?? (error as Error).message;
  }
}

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

describe("ports browsers refuse", () => {
  it("are refused by chromium and by Node's fetch, and the catalogue's default is not", async () => {
    const listed = Array.from({ length: 65536 }, (_, port) => port).filter((port) => port !== 0 && browsersRefuse(port));
    expect(listed).toContain(6000);
    const nodeAnswers = await Promise.all(
      listed.map((port) =>
        fetch(`http://127.0.0.1:${port}/`).then(
          () => "connected",
          (error: Error) => String((error.cause as Error)?.message),
        ),
      ),
    );
    expect(new Set(nodeAnswers)).toEqual(new Set(["bad port"]));
    const tab = await openTab(browser);
    try {
      const notRefused: number[] = [];
      for (const port of listed) {
        if ((await navigation(tab.page, `http://127.0.0.1:${port}/`)) !== "net::ERR_UNSAFE_PORT") notRefused.push(port);
      }
      // The Fetch standard added sieve (4190) and osaut (6679) after this Chromium's own list was made.
      expect(notRefused.filter((port) => port !== 4190 && port !== 6679)).toEqual([]);
      expect(await navigation(tab.page, `http://127.0.0.1:${DEFAULT_CATALOGUE_PORT}/`)).not.toBe("net::ERR_UNSAFE_PORT");
      expect(browsersRefuse(DEFAULT_CATALOGUE_PORT)).toBe(false);
    } finally {
      await tab.close();
    }
  }, 120_000);

  it("decide where the catalogue goes: the API's own port when browsers open it, else 6080 or the one asked for", () => {
    expect(separateCataloguePort(6000, undefined)).toBe(DEFAULT_CATALOGUE_PORT);
    expect(separateCataloguePort(10080, undefined)).toBe(DEFAULT_CATALOGUE_PORT);
    expect(separateCataloguePort(8000, undefined)).toBeUndefined();
    expect(separateCataloguePort(0, undefined)).toBeUndefined();
    expect(separateCataloguePort(6000, 8080)).toBe(8080);
    expect(separateCataloguePort(6000, 0)).toBe(0);
    expect(separateCataloguePort(0, 0)).toBe(0);
    expect(separateCataloguePort(8000, 8000)).toBeUndefined();
    expect(() => separateCataloguePort(8000, 6667)).toThrow(
      'the catalogue port 6667 is one browsers refuse to open (a "bad port" ' +
        "of the Fetch standard); choose another with WEB_PORT / --web-port",
    );
  });
});

describe("npm start with its API on a port browsers refuse", () => {
  it("prints the catalogue's own URL, which chromium opens, while the API keeps answering on its port", async () => {
    let apiPort: number | undefined;
    for (const candidate of [6566, 6697, 10080, 6665]) {
      if (await isFree(candidate)) {
        apiPort = candidate;
        break;
      }
    }
    expect(apiPort, "a port browsers refuse that is free here").toBeDefined();
    started = spawn(
      "npm",
      ["start", "--silent", "--", "--port", String(apiPort), "--web-port", "0", "--data-dir", dataDir, "--token", "t"],
      {
        cwd: ROOT,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    started.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    started.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => /Catalogue \(open in a browser\): (\S+)/.exec(output)?.[1], { timeout: 60_000 }).toBeDefined();
    const catalogueUrl = /Catalogue \(open in a browser\): (\S+)/.exec(output)![1]!;
    expect(output).toContain(`Agent Tools registry listening on http://127.0.0.1:${apiPort}\n`);
    expect(output).toContain(`(browsers refuse port ${apiPort})`);
    expect(output).toMatch(
      new RegExp(`SDK and CLI for any project: npm install http://127\\.0\\.0\\.1:${apiPort}/sdk/agent-tools-sdk-[\\d.]+\\.tgz`),
    );
    expect(catalogueUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const refused = await openTab(browser);
    expect(await navigation(refused.page, `http://127.0.0.1:${apiPort}/`)).toBe("net::ERR_UNSAFE_PORT");
    await refused.close();
    const tab = await openTab(browser);
    try {
      expect(await navigation(tab.page, catalogueUrl)).toBe("loaded");
      await expect(tab.page.locator("h1").textContent()).resolves.toBe("Tools");
      expect(tab.problems).toEqual([]);
    } finally {
      await tab.close();
    }
    // Node's fetch refuses the port as browsers do; the SDK's registry client (and curl) reach it all the same.
    const { registryFetch } = await import("../../../sdk/src/registry-client/registry-fetch.js");
    expect((await registryFetch(`http://127.0.0.1:${apiPort}/health`)).status).toBe(200);
    expect((await registryFetch(`http://127.0.0.1:${apiPort}/tools`)).status).toBe(200);
  }, 120_000);
});
