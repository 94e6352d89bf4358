/**
 * The web catalogue in a real browser (chromium via playwright-core) against a real registry:
 * search, filter, page, open a tool, switch version, copy a snippet; without JavaScript too; at
 * phone and desktop widths (screenshots in test-artifacts/web/). Every test ends with no CSP
 * violation, console error or page error.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { echoToolBundle, uploadOrThrow } from "../search/search-bundles.js";
import { DESKTOP, PHONE, launchBrowser, openTab, saveScreenshot, type Tab } from "../../support/browser.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";

const TEXT_STATS_INPUT = {
  type: "object",
  properties: {
    text: { type: "string", description: "Text to analyse" },
    top_n: { type: "integer", description: "How many words to return", default: 3, minimum: 1 },
    options: { type: "object", properties: { lowercase: { type: "boolean", description: "Fold case first" } } },
  },
  required: ["text"],
};

const TEXT_STATS_MD = `# text-stats

Counts the words in a text and returns the most frequent ones.

## Example

\`\`\`json
{"text": "the cat and the hat"}
\`\`\`

| field | meaning |
|---|---|
| word_count | all words |

See [the guide](https://example.org/guide).
`;

const FILLERS = 22;

let registry: TestRegistry;
let browser: Browser;
const tabs: Tab[] = [];

beforeAll(async () => {
  [registry, browser] = await Promise.all([startTestRegistry(), launchBrowser()]);
  const textStats = {
    tool_id: "text-stats",
    tool_type: "text-processing",
    tool_tags: ["text", "nlp"],
    tool_search_description: "Counts words in a text and returns the most frequent ones",
    tool_api_spec: { entrypoints: { execute: { input: TEXT_STATS_INPUT } } },
    tool_capabilities: { network: ["api.example.com:443"], filesystem: [{ path: "workspace", access: "read" }] },
  };
  await uploadOrThrow(registry.url, registry.token, echoToolBundle({ ...textStats, version: "1.0.0" }, TEXT_STATS_MD));
  await uploadOrThrow(registry.url, registry.token, echoToolBundle({ ...textStats, version: "1.1.0" }, TEXT_STATS_MD));
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({
      tool_id: "csv-to-json",
      tool_type: "data",
      tool_tags: ["csv", "json"],
      tool_search_description: "Converts CSV rows to JSON objects",
    }),
  );
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({
      tool_id: "word-frequency",
      tool_type: "text-processing",
      tool_tags: ["text"],
      tool_search_description: "Lists how often each word occurs",
    }),
  );
  for (let index = 0; index < FILLERS; index++) {
    const id = `filler-${String(index).padStart(2, "0")}`;
    await uploadOrThrow(
      registry.url,
      registry.token,
      echoToolBundle({
        tool_id: id,
        tool_type: "utility",
        tool_tags: ["filler"],
        tool_search_description: `Filler utility number ${index}`,
      }),
    );
  }
}, 120_000);

afterEach(async () => {
  for (const tab of tabs.splice(0)) {
    expect(tab.problems, "CSP violations, console errors or page errors").toEqual([]);
    await tab.close();
  }
});

afterAll(async () => {
  await browser?.close();
  await registry?.close();
});

async function tab(options: Parameters<typeof openTab>[1] = {}): Promise<Tab> {
  const opened = await openTab(browser, { viewport: DESKTOP, ...options });
  tabs.push(opened);
  return opened;
}

const resultIds = (page: Page) => page.locator(".results .name").allTextContents();

describe("the catalogue page", () => {
  it("searches with the ranking of GET /tools/search", async () => {
    const { page } = await tab();
    await page.goto(`${registry.url}/`);
    await page.getByRole("searchbox", { name: "Search words" }).fill("count words");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/\?q=count\+words/);
    const api = (await (await fetch(`${registry.url}/tools/search?q=count+words&limit=21`)).json()) as { results: { tool_id: string }[] };
    expect(api.results.length).toBeGreaterThan(1);
    expect(await resultIds(page)).toEqual(api.results.map((hit) => hit.tool_id));
    expect((await resultIds(page))[0]).toBe("text-stats");
    expect(await page.title()).toContain("count words");
  });

  it("filters by type and by tag, and pages through the results", async () => {
    const { page } = await tab();
    await page.goto(`${registry.url}/`);
    await page.getByRole("combobox", { name: "Tool type" }).selectOption("data");
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/type=data/);
    expect(await resultIds(page)).toEqual(["csv-to-json"]);

    // A tag link on a result narrows to that tag, keeping the other filters.
    await page.goto(`${registry.url}/?type=text-processing`);
    expect(await resultIds(page)).toEqual(["text-stats", "word-frequency"]);
    await page.locator(".results li", { hasText: "text-stats" }).getByRole("link", { name: "nlp" }).click();
    await page.waitForURL(/tag=nlp/);
    expect(await resultIds(page)).toEqual(["text-stats"]);

    await page.goto(`${registry.url}/`);
    await page.getByRole("combobox", { name: "Tag" }).fill("filler");
    await page.getByRole("combobox", { name: "Tag" }).press("Enter");
    await page.waitForURL(/tag=filler/);
    const firstPage = await resultIds(page);
    expect(firstPage).toHaveLength(20);
    expect(firstPage[0]).toBe("filler-00");
    await expect(page.locator(".count").textContent()).resolves.toBe("1–20 of 22 tools");
    await page.getByRole("link", { name: "Next →" }).click();
    await page.waitForURL(/page=2/);
    expect(await resultIds(page)).toEqual(["filler-20", "filler-21"]);
    await expect(page.locator(".count").textContent()).resolves.toBe("21–22 of 22 tools");
    await expect(page.getByRole("link", { name: "Next →" }).count()).resolves.toBe(0);
    await page.getByRole("link", { name: "← Previous" }).click();
    expect(await resultIds(page)).toEqual(firstPage);
  });

  it("works without JavaScript: search form, results, snippets as text, no dead copy buttons", async () => {
    const { page } = await tab({ javaScriptEnabled: false });
    await page.goto(`${registry.url}/`);
    await page.getByRole("searchbox", { name: "Search words" }).fill("csv");
    await page.getByRole("searchbox", { name: "Search words" }).press("Enter");
    await page.waitForURL(/q=csv/);
    expect(await resultIds(page)).toEqual(["csv-to-json"]);
    await page.getByRole("link", { name: "csv-to-json" }).click();
    await page.waitForURL(/\/t\/csv-to-json$/);
    await expect(page.locator("#snippet-curl").textContent()).resolves.toContain("/tools/csv-to-json/versions/1.0.0");
    await expect(page.locator("button.copy").first().isVisible()).resolves.toBe(false);
  });
});

describe("a tool's page", () => {
  it("shows the latest version: description, tags, input table, rendered tool.md, archive and versions", async () => {
    const { page } = await tab();
    await page.goto(`${registry.url}/?q=text-stats`);
    await page.getByRole("link", { name: "text-stats", exact: true }).click();
    await page.waitForURL(/\/t\/text-stats$/);
    const entry = (await (await fetch(`${registry.url}/tools/text-stats`)).json()) as Record<string, unknown>;

    await expect(page.locator("h1").textContent()).resolves.toBe("text-stats");
    await expect(page.locator(".version").textContent()).resolves.toBe("1.1.0");
    await expect(page.locator(".description").textContent()).resolves.toBe(entry.tool_search_description);
    expect(await page.getByRole("list", { name: "Tags" }).getByRole("link").allTextContents()).toEqual(["text", "nlp"]);

    const rows = await page
      .locator("table.input tbody tr")
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
    expect(rows).toEqual([
      ["text", "string", "yes", "Text to analyse"],
      ["top_n", "integer", "no", "How many words to returndefault 3; minimum 1"],
      ["options", "object", "no", ""],
      ["options.lowercase", "boolean", "no", "Fold case first"],
    ]);

    // tool.md rendered: its headings under the page's, its code block and table as elements.
    await expect(page.locator(".doc h3").textContent()).resolves.toBe("text-stats");
    await expect(page.locator(".doc pre code").textContent()).resolves.toContain('"the cat and the hat"');
    await expect(page.locator(".doc table td").first().textContent()).resolves.toBe("word_count");
    await expect(page.locator('.doc a[href="https://example.org/guide"]').getAttribute("rel")).resolves.toContain("nofollow");

    // Capabilities as the entry declares them (registries that do not store the manifest show none).
    const capabilities = (entry.tool_capabilities ?? {}) as Record<string, unknown[]>;
    const shown = await page.locator("dl.capabilities dt").allTextContents();
    expect(shown).toEqual(Object.keys(capabilities).filter((kind) => capabilities[kind]!.length > 0));
    if (shown.length === 0) await expect(page.locator("#capabilities + p").textContent()).resolves.toContain("No capabilities declared");
    else await expect(page.locator("dl.capabilities").textContent()).resolves.toContain("api.example.com:443");

    await expect(page.locator(".sha256").textContent()).resolves.toBe(entry.tool_archive_sha256);
    await expect(page.locator("#archive + dl")).toBeDefined();
    const versions = await page
      .locator("table.versions tbody tr")
      .evaluateAll((trs) => trs.map((tr) => tr.querySelector("td")?.textContent));
    expect(versions).toEqual(["1.1.0", "1.0.0"]);
    await expect(page.locator("table.versions .latest").count()).resolves.toBe(1);

    // The download link works from the page (the archive the sha256 names).
    const href = await page.getByRole("link", { name: "tool.zip" }).getAttribute("href");
    const archive = await fetch(new URL(href!, registry.url));
    expect(archive.status).toBe(200);
    expect(Buffer.from(await archive.arrayBuffer()).byteLength).toBe(entry.tool_archive_size);
  });

  it("switches to an older version, whose page is cacheable and pins its snippets", async () => {
    const { page } = await tab();
    await page.goto(`${registry.url}/t/text-stats`);
    const [response] = await Promise.all([
      page.waitForResponse(/\/t\/text-stats\/1\.0\.0$/),
      page.locator("table.versions").getByRole("link", { name: "1.0.0" }).click(),
    ]);
    expect(response.headers()["cache-control"]).toBe("public, max-age=300");
    await expect(page.locator(".version").textContent()).resolves.toBe("1.0.0");
    await expect(page.locator("table.versions [aria-current=page]").textContent()).resolves.toBe("1.0.0");
    await expect(page.locator("#snippet-sdk").textContent()).resolves.toContain('tools.add("text-stats@1.0.0")');
    // And back to the latest through the "newer" link.
    await page.getByRole("link", { name: "1.1.0" }).first().click();
    await page.waitForURL(/\/t\/text-stats$/);
    await expect(page.locator(".version").textContent()).resolves.toBe("1.1.0");
  });

  it("copies a snippet to the clipboard with its copy button", async () => {
    const { page } = await tab({ permissions: ["clipboard-read", "clipboard-write"] });
    await page.goto(`${registry.url}/t/text-stats`);
    const button = page.locator('button[data-copy="snippet-curl"]');
    await expect(button.isVisible()).resolves.toBe(true);
    // Every label the button shows (it turns back to "Copy" after 2 s, which a loaded machine can outlast).
    await page.evaluate(`(() => {
      const button = document.querySelector('button[data-copy="snippet-curl"]');
      window.labels = [];
      new MutationObserver(() => window.labels.push(button.textContent))
        .observe(button, { childList: true, characterData: true, subtree: true });
    })()`);
    await button.click();
    await expect.poll(() => page.evaluate<string[]>("window.labels")).toContain("Copied");
    const copied = await page.evaluate<string>("navigator.clipboard.readText()");
    expect(copied).toBe(await page.locator("#snippet-curl").textContent());
    expect(copied).toContain(`curl -fsS -w '\\n' ${registry.url}/tools/text-stats/versions/1.1.0`);
    expect(copied).toMatch(/^echo '[0-9a-f]{64} {2}text-stats-1\.1\.0\.zip' \| shasum -a 256 -c$/m);
  });
});

describe("layout", () => {
  it("fits a phone without sideways scrolling and follows the system's dark mode (screenshots saved)", async () => {
    for (const [name, viewport, colorScheme] of [
      ["phone", PHONE, "light"],
      ["phone-dark", PHONE, "dark"],
      ["desktop", DESKTOP, "light"],
    ] as const) {
      const { page } = await tab({ viewport, colorScheme });
      for (const [path, label] of [
        ["/", "catalogue"],
        ["/t/text-stats", "tool"],
      ]) {
        await page.goto(`${registry.url}${path}`);
        const widths = await page.evaluate<{ content: number; viewport: number }>(
          "({ content: document.documentElement.scrollWidth, viewport: innerWidth })",
        );
        expect(widths.content, `${label} at ${name}`).toBeLessThanOrEqual(widths.viewport);
        const background = await page.evaluate<string>("getComputedStyle(document.body).backgroundColor");
        expect(background, `${label} at ${name}`).toBe(colorScheme === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)");
        await saveScreenshot(page, `${label}-${name}`);
      }
    }
  });

  it("records a CSP violation when one happens (the guard the other tests rely on)", async () => {
    const t = await openTab(browser);
    await t.page.goto(`${registry.url}/`);
    await t.page.evaluate('document.body.append(Object.assign(document.createElement("img"), { src: "http://127.0.0.1:9/blocked.png" }))');
    await expect.poll(() => t.problems.join("\n")).toContain("csp: img-src http://127.0.0.1:9/blocked.png");
    await t.close();
  });
});
