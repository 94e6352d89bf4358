// Ranked search results come in pages (`next_cursor`, also in `Link: rel="next"`) that never repeat
// a tool and keep the ranking's order across pages.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { scaledCatalog } from "./relevance-catalog.js";
import { seedCatalog } from "./seed-catalog.js";

let registry: TestRegistry;

beforeAll(async () => {
  registry = await startTestRegistry({ searchIndexDelayMs: 3_600_000 });
  await seedCatalog(registry.local, scaledCatalog(600));
});

afterAll(async () => {
  await registry?.close();
});

const nextLink = (response: Response) => /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];

it("pages ranked search results with next_cursor, without repeating a tool", async () => {
  const seen: string[] = [];
  let scores: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 4; page++) {
    // Ranked results go 100 deep: the fourth page of 25 is the last.
    const response = await fetch(
      `${registry.url}/tools/search?q=convert+text+files+data&limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: { tool_id: string; score: number }[]; next_cursor?: string };
    expect(body.results).toHaveLength(25);
    seen.push(...body.results.map((hit) => hit.tool_id));
    scores = [...scores, ...body.results.map((hit) => hit.score)];
    cursor = body.next_cursor;
    if (page === 3) {
      expect(cursor).toBeUndefined();
      expect(nextLink(response)).toBeUndefined();
    } else {
      expect(nextLink(response)).toContain(`cursor=${encodeURIComponent(cursor!)}`);
    }
  }
  expect(new Set(seen).size).toBe(100);
  expect(scores).toEqual([...scores].sort((a, b) => b - a));
});
