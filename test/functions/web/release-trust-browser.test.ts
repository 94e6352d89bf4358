/**
 * What the pages say about trust, in a real browser against a real registry: the publisher of
 * every tool (catalogue and tool page), whether the shown version is signed and with which key,
 * and each version's lifecycle status: a deprecated version's message, a yanked version's reason
 * and that only an exact pin installs it, and the versions table hiding yanked versions unless
 * asked, as `GET /tools/{id}/versions` does.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signBundle } from "../../../sdk/src/publish/sign-bundle.js";
import { echoToolBundle, uploadOrThrow } from "../search/search-bundles.js";
import { launchBrowser, openTab, type Tab } from "../../support/browser.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";

let registry: TestRegistry;
let browser: Browser;
let acmeToken: string;
let keyId: string;
let privateKey: KeyObject;
const tabs: Tab[] = [];

async function call(method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${registry.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

/** Uploads `toolId@version` as acme, signed with acme's registered key. */
async function publishSigned(toolId: string, version: string): Promise<void> {
  const bundle = echoToolBundle({ tool_id: toolId, version, tool_search_description: `Searches acme's index (${version})` });
  const form = new FormData();
  form.set("file", new Blob([bundle as Uint8Array<ArrayBuffer>]), "bundle.zip");
  const response = await fetch(`${registry.url}/tools/upload`, {
    method: "POST",
    body: form,
    headers: { authorization: `Bearer ${acmeToken}`, "x-agent-tools-signature": signBundle(bundle, privateKey).header },
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

const setStatus = (toolId: string, version: string, body: Record<string, string>) =>
  call("PATCH", `/tools/${toolId}/versions/${version}`, acmeToken, body);

const DEPRECATION = "Use acme-search 1.0.0's successor: the index moved.";
const YANK_REASON = "Leaked the API key in its logs.";

beforeAll(async () => {
  [registry, browser] = await Promise.all([startTestRegistry(), launchBrowser()]);
  acmeToken = (
    await call("POST", "/tokens", registry.token, { name: "acme", scope: ["acme-*"], actions: ["publish", "deprecate", "yank"] })
  ).token as string;
  const pair = generateKeyPairSync("ed25519");
  privateKey = pair.privateKey;
  keyId = (
    await call("PUT", "/publishers/acme/keys", registry.token, { public_key: pair.publicKey.export({ type: "spki", format: "pem" }) })
  ).key_id as string;
  // acme-search: 1.0.0, 1.1.0 (deprecated, latest) and 2.0.0 (yanked), all signed; acme-gone: its only version yanked.
  for (const version of ["1.0.0", "1.1.0", "2.0.0"]) await publishSigned("acme-search", version);
  await setStatus("acme-search", "1.1.0", { status: "deprecated", message: DEPRECATION });
  await setStatus("acme-search", "2.0.0", { status: "yanked", reason: YANK_REASON });
  await publishSigned("acme-gone", "1.0.0");
  await setStatus("acme-gone", "1.0.0", { status: "yanked", reason: "withdrawn" });
  // An admin tool, unsigned.
  await uploadOrThrow(registry.url, registry.token, echoToolBundle({ tool_id: "plain-tool", tool_search_description: "Nothing to sign" }));
}, 60_000);

afterAll(async () => {
  await Promise.all(tabs.map((tab) => tab.close()));
  await browser?.close();
  await registry?.close();
});

async function tab(): Promise<Page> {
  const opened = await openTab(browser);
  tabs.push(opened);
  return opened.page;
}

/** The versions table as [version, status cell text] rows. */
function versionRows(page: Page): Promise<string[][]> {
  return page
    .locator("table.versions tbody tr")
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll("td")].slice(0, 2).map((cell) => (cell.textContent ?? "").trim())));
}

describe("trust on the pages", () => {
  it("the catalogue names each tool's publisher and marks a deprecated latest version", async () => {
    const page = await tab();
    await page.goto(`${registry.url}/`);
    const results = await page.locator(".results > li").evaluateAll((items) =>
      items.map((item) => ({
        id: item.querySelector(".name")?.textContent,
        publisher: item.querySelector(".publisher")?.textContent,
        deprecated: item.querySelector(".badge.deprecated") !== null,
      })),
    );
    // acme-gone has no latest version, so it is not listed (as in GET /tools).
    expect(results).toEqual([
      { id: "acme-search", publisher: "acme", deprecated: true },
      // Published with the admin token: named as what that is, not as "admin".
      { id: "plain-tool", publisher: "the registry operator", deprecated: false },
    ]);
  });

  it("a tool's page shows its publisher, the signature's key, and the latest version's deprecation", async () => {
    const page = await tab();
    const response = await page.goto(`${registry.url}/t/acme-search`);
    expect(response?.status()).toBe(200);
    await expect(page.locator(".version").textContent()).resolves.toBe("1.1.0");
    await expect(page.locator(".facts .publisher").textContent()).resolves.toBe("acme");
    await expect(page.locator("dd.signature .badge.signed").count()).resolves.toBe(1);
    const key = page.locator("dd.signature .key-id");
    await expect(key.getAttribute("title")).resolves.toBe(keyId);
    await expect(key.textContent()).resolves.toBe(`${keyId.slice(0, 23)}…`);

    const notice = page.getByRole("alert", { name: "Deprecated version" });
    await expect(notice.locator(".status-reason").textContent()).resolves.toBe(DEPRECATION);
    await expect(notice.textContent()).resolves.toContain("It still installs");
    // The yanked 2.0.0 is hidden, as in GET /tools/{id}/versions, with a way to show it.
    expect(await versionRows(page)).toEqual([
      ["1.1.0", `latestdeprecated${DEPRECATION}`],
      ["1.0.0", "superseded"],
    ]);
    await expect(page.locator("#versions ~ p.muted").textContent()).resolves.toContain("1 yanked version is hidden");
  });

  it("lists yanked versions when asked, and a yanked version's page says why and that only an exact pin installs it", async () => {
    const page = await tab();
    await page.goto(`${registry.url}/t/acme-search`);
    await page.getByRole("link", { name: "show yanked versions" }).click();
    await page.waitForURL(/\/t\/acme-search\?include_yanked=true#versions$/);
    expect(await versionRows(page)).toEqual([
      ["2.0.0", `yanked${YANK_REASON}`],
      ["1.1.0", `latestdeprecated${DEPRECATION}`],
      ["1.0.0", "superseded"],
    ]);
    await expect(page.getByRole("link", { name: "Hide yanked versions" }).count()).resolves.toBe(1);

    await page.locator("table.versions").getByRole("link", { name: "2.0.0" }).click();
    await page.waitForURL(/\/t\/acme-search\/2\.0\.0\?include_yanked=true$/);
    await expect(page.locator(".version").textContent()).resolves.toBe("2.0.0");
    await expect(page.locator("main > p.muted .badge.yanked").count()).resolves.toBe(1);
    const notice = page.getByRole("alert", { name: "Yanked version" });
    await expect(notice.locator(".status-reason").textContent()).resolves.toBe(YANK_REASON);
    const text = (await notice.textContent()) ?? "";
    expect(text).toContain("This version is yanked.");
    expect(text).toContain("only an exact pin (acme-search@2.0.0) still does");
    // Its way out is the latest version, which is not the highest one.
    await notice.getByRole("link", { name: "1.1.0" }).click();
    await page.waitForURL(/\/t\/acme-search$/);

    // Without the parameter, the yanked version's own page still lists itself (marked) but no other yanked one.
    await page.goto(`${registry.url}/t/acme-search/2.0.0`);
    expect((await versionRows(page)).map(([version]) => version)).toEqual(["2.0.0", "1.1.0", "1.0.0"]);
  });

  it("an unsigned admin tool says so; an all-yanked tool's latest page explains itself; a bad parameter is a 400 page", async () => {
    const page = await tab();
    await page.goto(`${registry.url}/t/plain-tool`);
    await expect(page.locator(".facts .publisher").textContent()).resolves.toBe("the registry operator");
    await expect(page.locator(".facts .publisher + .muted").textContent()).resolves.toBe(" (the admin token)");
    await expect(page.locator("dd.signature").textContent()).resolves.toContain("unsigned");
    await expect(page.getByRole("alert").count()).resolves.toBe(0);

    const gone = await page.goto(`${registry.url}/t/acme-gone`);
    expect(gone?.status()).toBe(404);
    await expect(page.locator("h1").textContent()).resolves.toBe("Every version is yanked");
    await expect(page.locator(".error").textContent()).resolves.toContain("/t/acme-gone/1.0.0");
    const pinned = await page.goto(`${registry.url}/t/acme-gone/1.0.0`);
    expect(pinned?.status()).toBe(200);
    await expect(page.getByRole("alert", { name: "Yanked version" }).textContent()).resolves.toContain("withdrawn");

    const missing = await page.goto(`${registry.url}/t/acme-gone/9.9.9`);
    expect(missing?.status()).toBe(404);
    await expect(page.locator(".error").textContent()).resolves.toContain("(all yanked) versions are 1.0.0");

    const bad = await page.goto(`${registry.url}/t/acme-search?include_yanked=yes`);
    expect(bad?.status()).toBe(400);
    await expect(page.locator(".error").textContent()).resolves.toBe('include_yanked must be "true" or "false", got "yes".');
  });
});
