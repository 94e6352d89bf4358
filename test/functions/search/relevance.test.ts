// Search quality through the real endpoint: 108 realistic tools, 32 labelled queries.
// The tools are seeded in bulk through the storage layer (seed-catalog.ts); the figures are
// printed for docs/search.md and the test holds the floor.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { LABELLED_QUERIES, relevanceCatalog } from "./relevance-catalog.js";
import { seedCatalog } from "./seed-catalog.js";

let registry: TestRegistry;
beforeAll(async () => {
  registry = await startTestRegistry();
  await seedCatalog(registry.local, relevanceCatalog());
});

afterAll(async () => {
  await registry?.close();
});

it("ranks the labelled tool in the top 5 for at least 90% of queries (recall@5) with MRR >= 0.85", async () => {
  expect(relevanceCatalog().length).toBeGreaterThanOrEqual(100);
  expect(LABELLED_QUERIES.length).toBeGreaterThanOrEqual(30);
  let foundInTop5 = 0;
  let reciprocalRanks = 0;
  const misses: string[] = [];
  for (const [query, expected] of LABELLED_QUERIES) {
    const response = await fetch(`${registry.url}/tools/search?q=${encodeURIComponent(query)}&limit=10`);
    expect(response.status).toBe(200);
    const ranked = ((await response.json()) as { results: { tool_id: string }[] }).results.map((result) => result.tool_id);
    const rank = ranked.indexOf(expected) + 1;
    if (rank >= 1 && rank <= 5) foundInTop5 += 1;
    if (rank >= 1) reciprocalRanks += 1 / rank;
    if (rank !== 1) misses.push(`"${query}" → ${expected} at rank ${rank || "> 10"} (top: ${ranked.slice(0, 3).join(", ")})`);
  }
  const recallAt5 = foundInTop5 / LABELLED_QUERIES.length;
  const mrr = reciprocalRanks / LABELLED_QUERIES.length;
  console.log(
    `relevance: ${relevanceCatalog().length} tools, ${LABELLED_QUERIES.length} ` +
      `queries, recall@5 ${recallAt5.toFixed(3)}, MRR ${mrr.toFixed(3)}`,
  );
  for (const miss of misses) console.log(`  not first: ${miss}`);
  expect(recallAt5).toBeGreaterThanOrEqual(0.9);
  expect(mrr).toBeGreaterThanOrEqual(0.85);
});
