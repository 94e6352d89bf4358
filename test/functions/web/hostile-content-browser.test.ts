/**
 * Hostile text in every field a page shows — tool.md, description, tags, type, input schema,
 * capabilities, the publisher, its key id, a deprecation message and a yank reason — and in the URL (ids,
 * versions, query and filters), checked in a real browser's
 * DOM: no script but the page's own, no event handler attribute, no link or image outside the URL
 * policy, no frame, form, base or meta refresh; the payloads shown as text. Once with the CSP on
 * (and no violation), once with it bypassed, so rendering alone is shown to be inert.
 */
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COPY_SCRIPT } from "../../../functions/web/copy-script.js";
import { echoToolBundle, uploadOrThrow } from "../search/search-bundles.js";
import { launchBrowser, openTab } from "../../support/browser.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";

/** Each payload, if it ever ran, would set `window.__xss` to its name. */
const run = (name: string) => `window.__xss='${name}'`;

const HOSTILE_MD = [
  `# <script>${run("md-heading")}</script>`,
  `<script>${run("md-script")}</script>`,
  `<img src=x onerror="${run("md-img")}">`,
  `<svg onload="${run("md-svg")}"></svg>`,
  `<a href="javascript:${run("md-raw-a")}">raw link</a>`,
  `[md link](javascript:${run("md-link")})`,
  `[entity link](&#106;avascript:${run("md-entity")})`,
  `[cased](JaVaScRiPt:${run("md-case")})`,
  `[vb](vbscript:msgbox)`,
  `[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)`,
  `<javascript:${run("md-autolink")}>`,
  `![js image](javascript:${run("md-image")})`,
  `![svg image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)`,
  `![http image](http://127.0.0.1:9/tracker.png)`,
  `![relative image](/tools/hostile-tool/archive)`,
  `![fine image](https://images.example/pixel.png)`,
  `[ref link][ref]`,
  ``,
  `[ref]: javascript:${run("md-ref")}`,
  ``,
  `<iframe src="https://evil.example/"></iframe>`,
  `<style>body{display:none}</style>`,
  `<form action="https://evil.example/"><input name="x"></form>`,
  `<meta http-equiv="refresh" content="0;url=https://evil.example/">`,
  `<base href="https://evil.example/">`,
  `\`<img src=x onerror=${run("md-code")}>\``,
  `<div style="position:fixed;inset:0">overlay</div>`,
].join("\n\n");

const HOSTILE_SPEC = {
  tool_id: "hostile-tool",
  tool_search_description: `"><img src=x onerror="${run("description")}"><script>${run("description-script")}</script>`,
  tool_tags: [`<script>${run("tag")}</script>`, `"><svg onload=${run("tag-svg")}>`, "javascript:alert(1)"],
  tool_type: `<b onmouseover="${run("type")}">bold</b>`,
  tool_api_spec: {
    entrypoints: {
      execute: {
        input: {
          type: "object",
          properties: {
            [`<img src=x onerror=${run("property")}>`]: {
              type: "string",
              description: `<script>${run("property-description")}</script>`,
              enum: [`<svg onload=${run("enum")}>`],
            },
          },
          required: [`<img src=x onerror=${run("property")}>`],
        },
      },
    },
  },
  // Valid as a manifest (the registry rejects unknown kinds and malformed hosts), hostile in the one free-text field.
  tool_capabilities: {
    network: ["api.example.com:443"],
    filesystem: [{ path: `/data/"><svg onload=${run("grant-path")}><script>${run("grant-script")}</script>`, access: "read" }],
  },
};

/** Lifecycle and trust text: a deprecation message and a yank reason (set over the API), an owner and key id planted in storage. */
const HOSTILE_RELEASE = {
  message: `</blockquote><script>${run("message")}</script><img src=x onerror="${run("message-img")}">`,
  reason: `"><svg onload=${run("reason")}></svg><a href="javascript:${run("reason-link")}">why</a>`,
  owner: `<img src=x onerror="${run("owner")}">`,
  keyId: `sha256:"><script>${run("key-id")}</script>`,
};

const HOSTILE_PATHS = [
  "/t/hostile-release",
  "/t/hostile-release/1.0.0",
  "/t/hostile-release?include_yanked=true",
  "/t/hostile-release/1.0.0?include_yanked=true",
  "/t/hostile-tool",
  "/t/hostile-tool/1.0.0",
  `/t/${encodeURIComponent(`<script>${run("id")}</script>`)}`,
  `/t/${encodeURIComponent(`x"><img src=x onerror=${run("id-attr")}>`)}`,
  `/t/hostile-tool/${encodeURIComponent(`<svg onload=${run("version")}>`)}`,
  `/?q=${encodeURIComponent(`<script>${run("query")}</script>`)}`,
  `/?q=${encodeURIComponent(`"><img src=x onerror=${run("query-attr")}>`)}&tag=` +
    `${encodeURIComponent(`"><svg onload=${run("tag-filter")}>`)}`,
  `/?type=${encodeURIComponent(`</option></select><script>${run("type-filter")}</script>`)}`,
  "/",
];

/** What must hold in the DOM of every page, whatever it shows. */
async function inertnessProblems(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    `(() => {
      const problems = [];
      const origin = location.origin;
      const protocol = (url) => { try { return new URL(url).protocol; } catch { return "unparsable:"; } };
      if (window.__xss !== undefined) problems.push("a payload ran: " + window.__xss);
      const scripts = [...document.scripts];
      if (scripts.length !== 1 || scripts[0].textContent !== ${JSON.stringify(COPY_SCRIPT)})
        problems.push("scripts: " + scripts.map((s) => s.outerHTML.slice(0, 80)).join(" | "));
      if (document.querySelectorAll("style").length !== 1) problems.push("style elements: " + document.querySelectorAll("style").length);
      for (const element of document.querySelectorAll("*")) {
        for (const attribute of element.attributes) {
          if (/^on/i.test(attribute.name)) problems.push("handler attribute: " + element.tagName + " " + attribute.name);
          if (attribute.name === "style") problems.push("style attribute on " + element.tagName);
        }
      }
      for (const link of document.querySelectorAll("a[href]")) {
        if (!["http:", "https:", "mailto:"].includes(protocol(link.href))) problems.push("link: " + link.getAttribute("href"));
      }
      for (const image of document.images) {
        if (protocol(image.src) !== "https:") problems.push("image: " + image.getAttribute("src"));
      }
      for (const selector of ["iframe", "object", "embed", "svg", "base", "meta[http-equiv]", "input:not([name=q]):not([name=tag])"]) {
        if (document.querySelector(selector)) problems.push("element: " + selector);
      }
      for (const form of document.forms) {
        if (new URL(form.action).origin !== origin) problems.push("form to " + form.action);
      }
      return problems;
    })()`,
  );
}

let registry: TestRegistry;
let browser: Browser;

beforeAll(async () => {
  [registry, browser] = await Promise.all([startTestRegistry(), launchBrowser()]);
  await uploadOrThrow(registry.url, registry.token, echoToolBundle(HOSTILE_SPEC, HOSTILE_MD));
  await plantHostileRelease();
}, 60_000);

/** hostile-release: 1.0.0 yanked and 1.1.0 (latest) deprecated with hostile text, 1.1.0 owned by and "signed" by hostile names. */
async function plantHostileRelease(): Promise<void> {
  for (const version of ["1.0.0", "1.1.0"])
    await uploadOrThrow(registry.url, registry.token, echoToolBundle({ tool_id: "hostile-release", version }));
  // No upload can set these (names and key ids are validated): what a tampered store would serve.
  const { entries } = registry.local.deps;
  const stored = (await entries.reads.getStoredVersion("hostile-release", "1.1.0"))!;
  const planted = {
    ...stored.entry,
    owner: HOSTILE_RELEASE.owner,
    signature: { key_id: HOSTILE_RELEASE.keyId, value: "AAAA" },
    updated_at: new Date(Date.parse(stored.entry.updated_at) + 5).toISOString(),
  };
  expect(await entries.versions.updateVersionEntry(planted, stored.entry.updated_at)).toBe(true);
  // The status changes rewrite the latest pointer from the version item, planted fields included.
  for (const [version, body] of [
    ["1.1.0", { status: "deprecated", message: HOSTILE_RELEASE.message }],
    ["1.0.0", { status: "yanked", reason: HOSTILE_RELEASE.reason }],
  ] as const) {
    const response = await fetch(`${registry.url}/tools/hostile-release/versions/${version}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.text()).toBe(200);
  }
}

afterAll(async () => {
  await browser?.close();
  await registry?.close();
});

/** A 1×1 PNG for the one image the policy lets through (the network is closed: serve it here). */
const PIXEL = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

async function visitAll(options: BrowserContextOptions) {
  const tab = await openTab(browser, options);
  await tab.page.context().route("https://images.example/**", (route) => route.fulfill({ contentType: "image/png", body: PIXEL }));
  const found: Record<string, string[]> = {};
  for (const path of HOSTILE_PATHS) {
    const response = await tab.page.goto(`${registry.url}${path}`);
    expect(response?.headers()["content-type"], path).toBe("text/html; charset=utf-8");
    expect(response?.headers()["content-security-policy"], path).toContain("default-src 'none'");
    const problems = await inertnessProblems(tab.page);
    if (problems.length > 0) found[path] = problems;
  }
  return { tab, found };
}

describe("hostile content", () => {
  it("is rendered inert on every page, with no CSP violation", async () => {
    const { tab, found } = await visitAll({});
    expect(found).toEqual({});
    // 404s of hostile ids are pages too; the only console errors allowed are those status lines.
    expect(tab.problems.filter((problem) => !/status of 40[04]/.test(problem))).toEqual([]);
    await tab.close();
  });

  it("stays inert with the CSP bypassed: the rendering alone is safe", async () => {
    const { tab, found } = await visitAll({ bypassCSP: true });
    expect(found).toEqual({});
    await tab.close();
  });

  it("shows the payloads as text and keeps what the policy allows", async () => {
    const tab = await openTab(browser);
    await tab.page.context().route("https://images.example/**", (route) => route.fulfill({ contentType: "image/png", body: PIXEL }));
    await tab.page.goto(`${registry.url}/t/hostile-tool`);
    const text = (await tab.page.locator("main").textContent()) ?? "";
    expect(text).toContain(`<script>${run("md-script")}</script>`);
    expect(text).toContain(HOSTILE_SPEC.tool_search_description);
    for (const tag of HOSTILE_SPEC.tool_tags) expect(text).toContain(tag);
    expect(text).toContain(`<img src=x onerror=${run("property")}>`);
    await expect(tab.page.locator(".doc a", { hasText: "md link" }).count()).resolves.toBe(0);
    // The one allowed image loaded, without sending a referrer.
    const image = tab.page.locator(".doc img");
    await expect(image.count()).resolves.toBe(1);
    await expect(image.getAttribute("referrerpolicy")).resolves.toBe("no-referrer");
    await image.scrollIntoViewIfNeeded();
    await expect
      .poll(() => image.evaluate((element: { complete: boolean; naturalWidth: number }) => element.complete && element.naturalWidth))
      .toBe(1);
    // A hostile tag links to the filtered catalogue, its text safely in the query string.
    const tagHref = await tab.page.locator(".tags a").first().getAttribute("href");
    expect(new URL(tagHref!, registry.url).searchParams.get("tag")).toBe(HOSTILE_SPEC.tool_tags[0]);
    expect(tab.problems).toEqual([]);
    await tab.close();
  });

  it("shows hostile owners, key ids, messages and reasons as text", async () => {
    const tab = await openTab(browser);
    await tab.page.goto(`${registry.url}/t/hostile-release?include_yanked=true`);
    await expect(tab.page.locator(".facts .publisher").textContent()).resolves.toBe(HOSTILE_RELEASE.owner);
    await expect(tab.page.locator("dd.signature .key-id").getAttribute("title")).resolves.toBe(HOSTILE_RELEASE.keyId);
    await expect(tab.page.locator(".notice .status-reason").textContent()).resolves.toBe(HOSTILE_RELEASE.message);
    const statuses = await tab.page.locator("table.versions .status-message").allTextContents();
    expect(statuses).toEqual([HOSTILE_RELEASE.message, HOSTILE_RELEASE.reason]);
    await tab.page.goto(`${registry.url}/t/hostile-release/1.0.0`);
    await expect(tab.page.locator(".notice.yanked .status-reason").textContent()).resolves.toBe(HOSTILE_RELEASE.reason);
    await tab.page.goto(`${registry.url}/`);
    await expect(tab.page.locator(".results .publisher").allTextContents()).resolves.toContain(HOSTILE_RELEASE.owner);
    expect(tab.problems).toEqual([]);
    await tab.close();
  });

  it("are caught by the checker when present (the guard the tests above rely on)", async () => {
    // With the CSP on, Trusted Types refuse even to plant a handler attribute.
    const tab = await openTab(browser, { bypassCSP: true });
    await tab.page.goto(`${registry.url}/`);
    await tab.page.evaluate(`(() => {
      const image = document.createElement("img");
      image.setAttribute("onerror", "void 0");
      const link = document.createElement("a");
      link.href = "javascript:void 0";
      document.body.append(image, link, document.createElement("iframe"));
      window.__xss = "planted";
    })()`);
    const problems = await inertnessProblems(tab.page);
    expect(problems).toEqual(
      expect.arrayContaining(["a payload ran: planted", "handler attribute: IMG onerror", "link: javascript:void 0", "element: iframe"]),
    );
    await tab.close();
  });
});
