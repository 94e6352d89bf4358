// Every listing at 10,000 tools answers pages bounded by count and by bytes (Lambda's 6 MB response
// limit), continued by opaque cursors in `Link: rel="next"` that the registry validates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PAGE_ITEMS } from "../../../functions/listing/bounded-page.js";
import { scaledCatalog } from "../search/relevance-catalog.js";
import { seedCatalog } from "../search/seed-catalog.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { expectLambdaPageWithinLimit, FORGED_CURSORS, nextCursor, walkPages } from "./page-walk.js";

const TOOLS = 10_000;
/** Tools with a 30 KB man page: together about 9 MB, so their listings must be cut by bytes. */
const LARGE_TOOLS = 300;

let registry: TestRegistry;
const LARGE_EVERY = Math.floor(TOOLS / LARGE_TOOLS);
const catalog = scaledCatalog(TOOLS).map((tool, index) =>
  index % LARGE_EVERY === 0 && index < LARGE_TOOLS * LARGE_EVERY
    ? {
        ...tool,
        tool_tags: [...tool.tool_tags, "large"],
        tool_man_page_doc: `${tool.tool_man_page_doc}\n${'A "quoted" line of reference text.\n'.repeat(800)}`,
      }
    : tool,
);
const largeIds = catalog
  .filter((tool) => tool.tool_tags.includes("large"))
  .map((tool) => tool.tool_id)
  .sort();

beforeAll(async () => {
  // No background snapshot rebuild of 10,000 tools competing with the requests measured here.
  registry = await startTestRegistry({ searchIndexDelayMs: 3_600_000 });
  await seedCatalog(registry.local, catalog);
}, 120_000);

afterAll(async () => {
  await registry?.close();
});

/** Follows `Link: rel="next"` from `path` to the end; the tool ids in order and each page's size. */
async function walk(path: string, limit = MAX_PAGE_ITEMS): Promise<{ ids: string[]; pages: number[] }> {
  const { items, pages } = await walkPages<{ tool_id: string }>(`${registry.url}${path}`, limit);
  return { ids: items.map((entry) => entry.tool_id), pages };
}

describe("bounded pages", () => {
  it("lists all 10,000 tools through GET /tools, 1,000 per page by default, each id once in order", async () => {
    const { ids, pages } = await walk("/tools");
    expect(ids).toEqual(catalog.map((tool) => tool.tool_id).sort());
    expect(pages[0]).toBe(MAX_PAGE_ITEMS);
  });

  it("cuts pages by bytes when their entries are large, and still serves every match", async () => {
    const byTag = await walk("/tools/query/by-tag?tag=large");
    expect(byTag.ids).toEqual(largeIds);
    expect(byTag.pages.length).toBeGreaterThan(1);
    expect(byTag.pages[0]!).toBeLessThan(LARGE_TOOLS);

    const listed = await walk("/tools?tag=large&limit=500");
    expect(listed.ids).toEqual(largeIds);
    expect(listed.pages.length).toBeGreaterThan(1);
  });

  it("pages query/by-keyword, whose single answer was 14.7 MiB at this size, by count and bytes", async () => {
    const { ids } = await walk("/tools/query/by-keyword?keyword=e&limit=1000");
    const expected = catalog
      .filter((tool) => tool.tool_search_description.toLowerCase().includes("e"))
      .map((tool) => tool.tool_id)
      .sort();
    expect(ids).toEqual(expected);
  });

  it("keeps the fetch Lambda's answer under its 6 MB response limit", async () => {
    await expectLambdaPageWithinLimit(registry, "/tools/query/by-tag?tag=large");
  });
});

describe("cursors", () => {
  const firstCursor = (path: string) => nextCursor(`${registry.url}${path}`);

  it.each(FORGED_CURSORS)("rejects %s with a 400 that says how to recover", async (_, forge) => {
    const cursor = await firstCursor("/tools?limit=10");
    const response = await fetch(`${registry.url}/tools?limit=10&cursor=${encodeURIComponent(forge(cursor))}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; detail: string };
    expect(body.error).toBe("Invalid cursor");
    expect(body.detail).toMatch(/omit cursor/);
  });

  it("rejects a cursor issued for another listing or other filters", async () => {
    const fromTag = await firstCursor("/tools/query/by-tag?tag=large&limit=5");
    for (const path of ["/tools/query/by-tag?tag=pdf", "/tools/query/by-type?type=large", "/tools", "/tools/search?q=large"]) {
      const response = await fetch(`${registry.url}${path}${path.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(fromTag)}`);
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/another listing or other filters/);
    }
  });

  it("rejects a limit past the page bound", async () => {
    const response = await fetch(`${registry.url}/tools/query/by-tag?tag=large&limit=${MAX_PAGE_ITEMS + 1}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain(`1 to ${MAX_PAGE_ITEMS}`);
  });
});
