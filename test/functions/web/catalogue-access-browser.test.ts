/**
 * The catalogue next to the best registry sites, in a real browser: a tool's license and author
 * (free-form in tool_metadata) on its page and in the results, its publisher named for what it
 * is; a skip link that is the first stop of the keyboard and lands on the content; copy buttons a
 * screen reader tells apart, each copy announced in a live status line; result counts that read
 * as counts; a wide screen used by a facts column beside the tool and by the results' facts.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolFacts } from "../../../functions/web/tool-facts.js";
import type { PublishedEntry } from "../../../functions/entry/published-entry.js";
import { echoToolBundle, uploadOrThrow } from "../search/search-bundles.js";
import { PHONE, launchBrowser, openTab, saveScreenshot, type Tab } from "../../support/browser.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";

const WIDE = { width: 1440, height: 900 };
const TOOLS = 23;

let registry: TestRegistry;
let browser: Browser;

beforeAll(async () => {
  [registry, browser] = await Promise.all([startTestRegistry(), launchBrowser()]);
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({
      tool_id: "glossary",
      tool_search_description: "Looks words up in a glossary of agent terms",
      tool_tags: ["words"],
      tool_metadata: { version: "2.1.0", license: "Apache-2.0", author: { name: "Ada Lovelace", email: "ada@example.org" } },
      tool_api_spec: {
        entrypoints: { execute: { input: { type: "object", properties: { term: { type: "string" } }, required: ["term"] } } },
      },
    }),
  );
  for (let index = 1; index < TOOLS; index++) {
    const id = `tool-${String(index).padStart(2, "0")}`;
    await uploadOrThrow(registry.url, registry.token, echoToolBundle({ tool_id: id, tool_search_description: `Tool number ${index}` }));
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await registry?.close();
});

async function withTab(options: Parameters<typeof openTab>[1], body: (tab: Tab) => Promise<void>): Promise<void> {
  const tab = await openTab(browser, options);
  try {
    await body(tab);
    expect(tab.problems).toEqual([]);
  } finally {
    await tab.close();
  }
}

describe("facts about a tool", () => {
  it("shows license and author from tool_metadata, and the admin token's tools as the registry operator's", async () => {
    await withTab({}, async ({ page }) => {
      await page.goto(`${registry.url}/t/glossary`);
      await expect(page.locator(".facts .license").textContent()).resolves.toBe("Apache-2.0");
      await expect(page.locator(".facts .author").textContent()).resolves.toBe("Ada Lovelace <ada@example.org>");
      await expect(page.locator(".facts .publisher").textContent()).resolves.toBe("the registry operator");
      await page.goto(`${registry.url}/t/tool-01`);
      await expect(page.locator(".facts .license").textContent()).resolves.toBe("not stated");
      await page.goto(`${registry.url}/?q=glossary`);
      const result = page.locator(".results > li").first();
      await expect(result.locator(".author").textContent()).resolves.toBe("Ada Lovelace <ada@example.org>");
      await expect(result.locator(".meta").textContent()).resolves.toContain("Apache-2.0");
    });
  });

  it("reads platforms, people and licenses in the forms the spec allows, and nothing it cannot name", () => {
    const facts = (tool_metadata: unknown, tool_platforms?: unknown) =>
      toolFacts({ tool_metadata, ...(tool_platforms === undefined ? {} : { tool_platforms }) } as unknown as PublishedEntry);
    expect(facts({ license: "MIT", author: ["Ada", { name: "Grace" }] })).toEqual({ license: "MIT", author: "Ada, Grace", platforms: [] });
    expect(facts({ license: { spdx: "MIT" }, author: 42 })).toEqual({ license: undefined, author: "42", platforms: [] });
    expect(facts("not an object", [{ os: "linux", arch: "x64", libc: "musl" }, { os: "darwin", arch: "arm64" }, "junk"]).platforms).toEqual(
      ["linux-x64-musl", "darwin-arm64"],
    );
    expect(facts({ author: "x".repeat(300) }).author).toHaveLength(201);
  });
});

describe("keyboard and screen readers", () => {
  it("makes the skip link the first stop of the keyboard, landing on the content", async () => {
    await withTab({}, async ({ page }) => {
      await page.goto(`${registry.url}/t/glossary`);
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      await expect(skip.evaluate((element) => element === element.ownerDocument.activeElement)).resolves.toBe(true);
      await expect(skip.isVisible()).resolves.toBe(true);
      await page.keyboard.press("Enter");
      await expect(page.evaluate<string | undefined>("document.activeElement?.id")).resolves.toBe("content");
    });
  });

  it("names every copy button after its snippet and announces each copy", async () => {
    await withTab({ permissions: ["clipboard-read", "clipboard-write"] }, async ({ page }) => {
      await page.goto(`${registry.url}/t/glossary`);
      const names = await page.getByRole("button").evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-label")));
      expect(names).toEqual([
        "Copy the npm install snippet",
        "Copy the SDK (JavaScript) snippet",
        "Copy the CLI snippet",
        "Copy the MCP host config snippet",
        "Copy the curl snippet",
      ]);
      const status = page.getByRole("status");
      await expect(status.textContent()).resolves.toBe("");
      await page.getByRole("button", { name: "Copy the MCP host config snippet" }).click();
      await expect.poll(() => status.textContent()).toBe("Copied the MCP host config snippet to the clipboard.");
      await expect(page.evaluate<string>("navigator.clipboard.readText()")).resolves.toBe(await page.locator("#snippet-mcp").textContent());
      await expect(status.getAttribute("aria-live")).resolves.toBe("polite");
    });
  });
});

describe("result counts", () => {
  it("reads as a count when one page holds them all, as a range of the total otherwise", async () => {
    await withTab({}, async ({ page }) => {
      const count = () => page.locator(".count").textContent();
      await page.goto(`${registry.url}/?q=glossary`);
      await expect(count()).resolves.toBe("1 matching tool");
      await page.goto(`${registry.url}/?tag=words`);
      await expect(count()).resolves.toBe("1 tool");
      await page.goto(`${registry.url}/`);
      await expect(count()).resolves.toBe(`1–20 of ${TOOLS} tools`);
      await page.goto(`${registry.url}/?page=2`);
      await expect(count()).resolves.toBe(`21–${TOOLS} of ${TOOLS} tools`);
      await page.goto(`${registry.url}/?q=tool%20number`);
      await expect(count()).resolves.toBe(`1–20 of ${TOOLS - 1} matching tools`);
    });
  });
});

/** Where a tool page's main column and its facts column sit. */
async function toolColumns(page: Tab["page"]) {
  await page.goto(`${registry.url}/t/glossary`);
  return { main: await page.locator(".tool-main").boundingBox(), side: await page.locator(".tool-side").boundingBox() };
}

describe("a wide screen", () => {
  it("puts a tool's facts beside its main column and the results' facts beside them, with no sideways scrolling", async () => {
    await withTab({ viewport: WIDE }, async ({ page }) => {
      const { main, side } = await toolColumns(page);
      expect(side!.x).toBeGreaterThanOrEqual(main!.x + main!.width);
      expect(Math.abs(side!.y - main!.y)).toBeLessThan(5);
      expect(side!.x + side!.width - main!.x).toBeGreaterThan(1100);
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(WIDE.width);
      await saveScreenshot(page, "tool-wide");
      await page.goto(`${registry.url}/`);
      const summary = await page.locator(".results > li .summary").first().boundingBox();
      const meta = await page.locator(".results > li .meta").first().boundingBox();
      expect(meta!.x).toBeGreaterThan(summary!.x + summary!.width);
      await saveScreenshot(page, "catalogue-wide");
    });
  });

  it("stacks the facts below the main column on a phone, still without sideways scrolling", async () => {
    await withTab({ viewport: PHONE }, async ({ page }) => {
      const { main, side } = await toolColumns(page);
      expect(side!.y).toBeGreaterThanOrEqual(main!.y + main!.height);
      expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(PHONE.width);
    });
  });
});
