// Hybrid retrieval through a real registry: tools embedded when published and edited (by the
// OpenAI-compatible embedder, against the local fake server), their vectors stored with the entry
// and in the index, searches fusing lexical and vector results; lexical only when the service fails.
import { afterAll, beforeAll, expect, it } from "vitest";
import { OpenAIEmbedder } from "../../../functions/search/openai-embedder.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "./search-bundles.js";

let llm: FakeOpenAI;
let registry: TestRegistry;

beforeAll(async () => {
  // The fake model knows what the lexical search does not: a puppy is a dog, a tune is a song.
  llm = await startFakeOpenAI({
    synonyms: [
      ["dog", "puppy"],
      ["song", "tune", "melody"],
    ],
  });
  registry = await startTestRegistry({ embedder: new OpenAIEmbedder({ baseUrl: llm.baseUrl, apiKey: "test-key", model: "fake-embed" }) });
  for (const spec of [
    {
      tool_id: "dog-breeds",
      tool_search_description: "Identifies the breed of a dog in a photo",
      tool_tags: ["image"],
      tool_type: "media",
    },
    { tool_id: "song-finder", tool_search_description: "Names the song playing in a recording", tool_tags: ["audio"], tool_type: "media" },
    { tool_id: "word-count", tool_search_description: "Counts the words of a text", tool_tags: ["text"], tool_type: "text-processing" },
  ]) {
    await uploadOrThrow(registry.url, registry.token, echoToolBundle(spec));
  }
});

afterAll(async () => {
  await registry?.close();
  await llm?.close();
});

async function search(query: string): Promise<{ status: number; ids: string[] }> {
  const response = await fetch(`${registry.url}/tools/search?${query}`);
  const body = (await response.json()) as { results?: { tool_id: string }[] };
  return { status: response.status, ids: (body.results ?? []).map((hit) => hit.tool_id) };
}

it("stores each published tool's vector with its entry but never serves it", async () => {
  const stored = await registry.local.deps.entries.reads.getLatest("dog-breeds");
  expect(stored?.tool_search_embedding).toMatchObject({ model: "fake-embed", dimensions: 64 });
  const served = (await (await fetch(`${registry.url}/tools/dog-breeds`)).json()) as Record<string, unknown>;
  expect(served.tool_id).toBe("dog-breeds");
  expect(served).not.toHaveProperty("tool_search_embedding");
  const embedded = llm.requests.filter((request) => request.path === "/v1/embeddings").map((request) => request.body.input[0] as string);
  expect(embedded).toContain("dog-breeds\nIdentifies the breed of a dog in a photo\nimage\nmedia");
});

it("finds a tool by meaning when no word matches, first when both searches agree", async () => {
  expect((await search("q=puppy")).ids[0]).toBe("dog-breeds");
  expect((await search("q=which+tune+is+this")).ids[0]).toBe("song-finder");
  expect((await search("q=count+words")).ids[0]).toBe("word-count");
});

it("applies the type and tag filters to vector results too, and finds nothing with nothing in common", async () => {
  expect((await search("q=puppy&type=media")).ids).toEqual(["dog-breeds"]);
  expect((await search("q=puppy&tag=audio")).ids).toEqual([]);
  expect((await search("q=puppy&type=text-processing")).ids).toEqual([]);
});

it("answers lexically when the query cannot be embedded", async () => {
  llm.reply({ status: 503, message: "The server is overloaded" });
  const { status, ids } = await search("q=dog+photo+breed");
  expect(status).toBe(200);
  expect(ids).toEqual(["dog-breeds"]);
});

it("publishes without a vector when the embedder fails, and the tool is still found lexically", async () => {
  llm.reply({ status: 500, message: "internal error" });
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({ tool_id: "weather-now", tool_search_description: "Current weather for a city" }),
  );
  expect((await registry.local.deps.entries.reads.getLatest("weather-now"))?.tool_search_embedding).toBeUndefined();
  expect((await search("q=weather+city")).ids[0]).toBe("weather-now");
});

it("embeds a tool again when its description is edited", async () => {
  const response = await fetch(`${registry.url}/tools/word-count`, {
    method: "PUT",
    headers: { authorization: `Bearer ${registry.token}`, "content-type": "application/json" },
    body: JSON.stringify({ tool_search_description: "Counts the words of a melody's lyrics" }),
  });
  expect(response.status).toBe(200);
  const before = llm.requests.length;
  expect((await search("q=tune+lyrics+statistics")).ids[0]).toBe("word-count");
  expect(llm.requests.length).toBe(before + 1);
});
