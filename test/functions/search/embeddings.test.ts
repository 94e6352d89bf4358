// The hybrid search's parts on their own: the OpenAI-compatible embedder against the local fake
// server (request, answers, failures), the configuration, reciprocal-rank fusion and the stored
// vector format, as data where they are rules.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EmbeddingError } from "../../../functions/search/embedder.js";
import { embedderFromEnv } from "../../../functions/search/embedding-config.js";
import { OpenAIEmbedder } from "../../../functions/search/openai-embedder.js";
import { BedrockEmbedder } from "../../../functions/search/bedrock-embedder.js";
import { reciprocalRankFusion } from "../../../functions/search/rank-fusion.js";
import { decodeEmbedding, embeddingText, encodeEmbedding } from "../../../functions/search/tool-embedding.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.js";

let llm: FakeOpenAI;
beforeAll(async () => {
  llm = await startFakeOpenAI({ synonyms: [["car", "automobile"]] });
});
afterAll(async () => {
  await llm?.close();
});

describe("OpenAIEmbedder", () => {
  it("sends the texts in one request and returns one unit vector per text, in order", async () => {
    const embedder = new OpenAIEmbedder({ baseUrl: llm.baseUrl, apiKey: "test-key", model: "text-embedding-3-small" });
    const before = llm.requests.length;
    const [car, automobile, weather] = await embedder.embed(["a red car", "a red automobile", "weather forecast"]);
    expect(llm.requests.length).toBe(before + 1);
    const request = llm.requests.at(-1)!;
    expect(request.path).toBe("/v1/embeddings");
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.body).toEqual({
      model: "text-embedding-3-small",
      input: ["a red car", "a red automobile", "weather forecast"],
      encoding_format: "float",
    });
    expect(car).toHaveLength(64);
    expect([...car!]).toEqual([...automobile!]);
    expect([...car!]).not.toEqual([...weather!]);
  });

  it("asks for the configured dimensions", async () => {
    const embedder = new OpenAIEmbedder({ baseUrl: `${llm.baseUrl}/`, apiKey: "k", model: "m", dimensions: 16 });
    const [vector] = await embedder.embed(["text"]);
    expect(llm.requests.at(-1)!.body.dimensions).toBe(16);
    expect(vector).toHaveLength(16);
  });

  const FAILURES: [what: string, reply: Parameters<FakeOpenAI["reply"]>[0], message: RegExp, status?: number][] = [
    ["an error status", { status: 429, message: "Rate limit reached" }, /answered 429: Rate limit reached/, 429],
    ["no data list", { rawBody: { object: "list" } }, /without a data list/, 200],
    ["fewer vectors than texts", { rawBody: { data: [] } }, /0 vectors for 1 texts/],
    ["a vector that is not numbers", { rawBody: { data: [{ index: 0, embedding: ["x"] }] } }, /not a finite number/],
    ["an empty vector", { rawBody: { data: [{ index: 0, embedding: [] }] } }, /0 dimensions/],
  ];
  it.each(FAILURES)("fails with an EmbeddingError on %s", async (_what, reply, message, status) => {
    llm.reply(reply);
    const failure = await new OpenAIEmbedder({ baseUrl: llm.baseUrl, apiKey: "k", model: "m" })
      .embed(["text"])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EmbeddingError);
    expect((failure as EmbeddingError).message).toMatch(message);
    if (status !== undefined) expect((failure as EmbeddingError).status).toBe(status);
  });

  it("fails with an EmbeddingError when the endpoint cannot be reached", async () => {
    const failure = await new OpenAIEmbedder({ baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", model: "m", timeoutMs: 2000 })
      .embed(["text"])
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EmbeddingError);
    expect((failure as Error).message).toMatch(/could not be reached/);
  });
});

describe("embedderFromEnv", () => {
  it("is off unless configured", () => {
    expect(embedderFromEnv({})).toBeUndefined();
    expect(embedderFromEnv({ SEARCH_EMBEDDINGS: "off", OPENAI_API_KEY: "k" })).toBeUndefined();
  });

  it("builds the configured adapter", () => {
    const openai = embedderFromEnv({ SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDING_MODEL: "text-embedding-3-small", OPENAI_API_KEY: "k" });
    expect(openai).toBeInstanceOf(OpenAIEmbedder);
    expect(openai!.model).toBe("text-embedding-3-small");
    const bedrock = embedderFromEnv({
      SEARCH_EMBEDDINGS: "bedrock",
      SEARCH_EMBEDDING_MODEL: "amazon.titan-embed-text-v2:0",
      AWS_REGION: "eu-west-1",
    });
    expect(bedrock).toBeInstanceOf(BedrockEmbedder);
  });

  const MISCONFIGURED: [env: Record<string, string>, message: RegExp][] = [
    [{ SEARCH_EMBEDDINGS: "cohere" }, /SEARCH_EMBEDDINGS must be "openai", "bedrock" or "off", got "cohere"/],
    [{ SEARCH_EMBEDDINGS: "openai", OPENAI_API_KEY: "k" }, /needs SEARCH_EMBEDDING_MODEL, e\.g\. text-embedding-3-small/],
    [{ SEARCH_EMBEDDINGS: "openai", SEARCH_EMBEDDING_MODEL: "m" }, /needs SEARCH_EMBEDDING_API_KEY \(or OPENAI_API_KEY\)/],
    [
      { SEARCH_EMBEDDINGS: "bedrock", SEARCH_EMBEDDING_MODEL: "m", SEARCH_EMBEDDING_DIMENSIONS: "0" },
      /SEARCH_EMBEDDING_DIMENSIONS must be a whole number of at least 1, got "0"/,
    ],
    [
      { SEARCH_EMBEDDINGS: "bedrock", SEARCH_EMBEDDING_MODEL: "m", SEARCH_EMBEDDING_TIMEOUT_MS: "soon" },
      /SEARCH_EMBEDDING_TIMEOUT_MS must be a whole number/,
    ],
  ];
  it.each(MISCONFIGURED)("refuses %j", (env, message) => {
    expect(() => embedderFromEnv(env)).toThrow(message);
  });
});

describe("reciprocalRankFusion", () => {
  const CASES: [lists: string[][], expected: string[]][] = [
    // Found by both lists beats first in one.
    [
      [
        ["a", "b", "c"],
        ["c", "d", "b"],
      ],
      ["c", "b", "a", "d"],
    ],
    // One list alone keeps its order.
    [
      [["x", "y", "z"], []],
      ["x", "y", "z"],
    ],
    // Equal fused scores keep the order in which the lists named them.
    [
      [
        ["p", "q"],
        ["q", "p"],
      ],
      ["p", "q"],
    ],
  ];
  it.each(CASES)("fuses %j into %j", (lists, expected) => {
    expect(reciprocalRankFusion(lists).map((fused) => fused.item)).toEqual(expected);
  });

  it("scores 1/(k + rank) per list", () => {
    expect(reciprocalRankFusion([["a"], ["a"]], 60)[0]!.score).toBeCloseTo(2 / 61, 12);
  });
});

describe("stored embeddings", () => {
  it("round-trips a vector exactly", () => {
    const vector = Float32Array.from([0.5, -1.25, 3e-8, 0]);
    const stored = encodeEmbedding("m", vector);
    expect(stored).toMatchObject({ model: "m", dimensions: 4 });
    expect([...decodeEmbedding(JSON.parse(JSON.stringify(stored)))!.vector]).toEqual([...vector]);
  });

  const MALFORMED: [what: string, stored: unknown][] = [
    ["nothing", undefined],
    ["a string", "vector"],
    ["no model", { dimensions: 1, vector: "AAAAAA==" }],
    ["a length that does not match", { model: "m", dimensions: 2, vector: "AAAAAA==" }],
    ["too many dimensions", { model: "m", dimensions: 5000, vector: "" }],
    ["a NaN", { model: "m", dimensions: 1, vector: Buffer.from(new Float32Array([Number.NaN]).buffer).toString("base64") }],
  ];
  it.each(MALFORMED)("ignores %s", (_what, stored) => {
    expect(decodeEmbedding(stored)).toBeUndefined();
  });

  it("embeds a tool's short fields, not its man page", () => {
    const text = embeddingText({
      tool_id: "text-stats",
      tool_search_description: "Counts words",
      tool_tags: ["text", "nlp"],
      tool_type: "text-processing",
      tool_man_page_doc: "# a long page",
      tool_api_spec: {
        entrypoints: { execute: { input: { type: "object", properties: { text: { type: "string", description: "Text to analyse" } } } } },
      },
    });
    expect(text).toBe("text-stats\nCounts words\ntext, nlp\ntext-processing\ntext Text to analyse");
  });
});
