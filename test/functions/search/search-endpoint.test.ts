// GET /tools/search on the real registry: ranking, filters, freshness, bad input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureBundle } from "../../support/bundles.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "./search-bundles.js";

let registry: TestRegistry;

const search = async (query: string) => {
  const response = await fetch(`${registry.url}/tools/search?${query}`);
  return { status: response.status, body: (await response.json()) as any };
};
const ids = async (query: string) => {
  const { status, body } = await search(query);
  expect(status).toBe(200);
  return (body.results as { tool_id: string }[]).map((result) => result.tool_id);
};
const write = (method: string, path: string, body?: unknown) =>
  fetch(`${registry.url}${path}`, {
    method,
    headers: { "content-type": "application/json", authorization: `Bearer ${registry.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  // cacheRevalidateMs is large: freshness below comes from the catalog-change hook alone.
  registry = await startTestRegistry({ cacheRevalidateMs: 3_600_000 });
  await uploadOrThrow(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle);
  await uploadOrThrow(registry.url, registry.token, (await fixtureBundle("binary-increment")).bundle);
  const tools = [
    {
      tool_id: "csv-to-json",
      tool_search_description: "Converts CSV spreadsheets into JSON records",
      tool_tags: ["csv", "json", "convert"],
      tool_type: "data",
    },
    {
      tool_id: "image.resize",
      tool_search_description: "Resizes and crops images to a target width and height",
      tool_tags: ["image", "resize"],
      tool_type: "media",
    },
    {
      tool_id: "word_cloud",
      tool_search_description: "Draws a word cloud picture from a document",
      tool_tags: ["text", "visualisation"],
      tool_type: "media",
    },
    {
      tool_id: "summarizer",
      tool_search_description: "Summarizes long documents into a few sentences",
      tool_tags: ["text", "llm"],
      tool_type: "text-processing",
    },
    {
      tool_id: "pdf.textExtract_v2",
      tool_search_description: "Pulls the content out of PDF files",
      tool_tags: ["pdf"],
      tool_type: "documents",
    },
  ];
  for (const tool of tools) await uploadOrThrow(registry.url, registry.token, echoToolBundle(tool));
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle(
      { tool_id: "log-scanner", tool_search_description: "Scans service logs", tool_tags: ["logs"], tool_type: "ops" },
      "# log-scanner\n\nFinds stack traces and also reports which exceptions occur most often in a kubernetes cluster.",
    ),
  );
});

afterAll(async () => {
  await registry?.close();
});

describe("ranking", () => {
  it("answers the issue's example with text-stats first and the documented fields", async () => {
    const { status, body } = await search("q=count+words&limit=5");
    expect(status).toBe(200);
    expect(body.results[0]).toEqual({
      tool_id: "text-stats",
      version: "1.0.0",
      score: expect.any(Number),
      tool_search_description: "Counts words in a text and returns the most frequent ones",
      tool_tags: ["text", "nlp", "statistics"],
      tool_type: "text-processing",
    });
    const scores = (body.results as { score: number }[]).map((result) => result.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((score) => score > 0)).toBe(true);
  });

  it("matches id parts split on . - _, plural and -ing forms, prefixes and a typo", async () => {
    expect((await ids("q=resize"))[0]).toBe("image.resize");
    expect((await ids("q=image"))[0]).toBe("image.resize");
    expect((await ids("q=cloud"))[0]).toBe("word_cloud");
    expect((await ids("q=extract"))[0]).toBe("pdf.textExtract_v2");
    expect((await ids("q=textExtract"))[0]).toBe("pdf.textExtract_v2");
    expect((await ids("q=counting+word"))[0]).toBe("text-stats");
    expect((await ids("q=summar"))[0]).toBe("summarizer");
    expect((await ids("q=incremnt"))[0]).toBe("binary-increment");
  });

  it("weighs the id and tags above the man page", async () => {
    // "json" is in csv-to-json's id, tags and description, and only in binary-increment's man page.
    const { body } = await search("q=json");
    const [first, second] = body.results as { tool_id: string; score: number }[];
    expect([first?.tool_id, second?.tool_id]).toEqual(["csv-to-json", "binary-increment"]);
    expect(first!.score).toBeGreaterThan(3 * second!.score);
    // Only log-scanner's man page mentions kubernetes: still found, by the man page alone.
    expect(await ids("q=kubernetes")).toEqual(["log-scanner"]);
  });

  it("tolerates stop words and natural questions", async () => {
    expect((await ids(`q=${encodeURIComponent("how many words are in this text?")}`))[0]).toBe("text-stats");
    expect(await ids("q=the+of+and")).toEqual([]);
  });

  it("treats quotes, regex metacharacters, unicode and emoji as plain text", async () => {
    for (const q of ['"count" words', "(.*)+[a-z]{2}\\", "c++ $^ | ?", "wörds ÇOUNT", "🚀 count", "%", "日本語"]) {
      const { status, body } = await search(`q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
      expect(Array.isArray(body.results), q).toBe(true);
    }
    expect((await ids(`q=${encodeURIComponent("wörds ÇOUNT")}`))[0]).toBe("text-stats");
  });

  it("honours limit", async () => {
    expect(await ids("q=text&limit=1")).toHaveLength(1);
    expect((await ids("q=text&limit=100")).length).toBeGreaterThan(1);
  });
});

describe("filters", () => {
  it("type and tag are exact", async () => {
    expect(await ids("q=words&type=media")).toEqual(["word_cloud"]);
    expect(await ids("q=words&type=medi")).toEqual([]);
    expect(await ids("q=text&tag=llm")).toEqual(["summarizer"]);
    expect(await ids("q=text&tag=LLM")).toEqual([]);
    expect((await ids("q=text&tag=text&type=text-processing")).sort()).toEqual(["summarizer", "text-stats"]);
  });
});

describe("freshness on the local server", () => {
  it("sees an upload, a PUT and a delete on the very next search", async () => {
    expect(await ids("q=barcode")).toEqual([]);
    await uploadOrThrow(
      registry.url,
      registry.token,
      echoToolBundle({ tool_id: "qr-maker", tool_search_description: "Makes barcode images", tool_tags: ["qr"], tool_type: "media" }),
    );
    expect(await ids("q=barcode")).toEqual(["qr-maker"]);

    expect((await write("PUT", "/tools/qr-maker", { tool_search_description: "Renders QR codes as SVG" })).status).toBe(200);
    expect(await ids("q=barcode")).toEqual([]);
    const { body } = await search("q=svg");
    expect(body.results).toEqual([expect.objectContaining({ tool_id: "qr-maker", tool_search_description: "Renders QR codes as SVG" })]);

    expect((await write("DELETE", "/tools/qr-maker")).status).toBe(200);
    expect(await ids("q=svg")).toEqual([]);
  });

  it("reports the newest version after a new one is uploaded", async () => {
    await uploadOrThrow(
      registry.url,
      registry.token,
      echoToolBundle({
        tool_id: "summarizer",
        version: "2.0.0",
        tool_search_description: "Summarizes long documents into bullet points",
        tool_tags: ["text", "llm"],
        tool_type: "text-processing",
      }),
    );
    const { body } = await search("q=bullet");
    expect(body.results).toEqual([expect.objectContaining({ tool_id: "summarizer", version: "2.0.0" })]);
  });
});

describe("bad input", () => {
  it.each([
    ["", "needs ?q="],
    ["q=", "empty"],
    ["q=%20%09%0A", "empty"],
    [`q=${"a".repeat(513)}`, "513 characters"],
    ["q=x&limit=0", "limit"],
    ["q=x&limit=101", "limit"],
    ["q=x&limit=-1", "limit"],
    ["q=x&limit=2.5", "limit"],
    ["q=x&limit=ten", "limit"],
    ["q=x&limit=", "limit"],
  ])("?%s is a 400 whose detail says what is wrong", async (query, words) => {
    const { status, body } = await search(query);
    expect(status).toBe(400);
    expect(body.error).toBe("Invalid search query");
    expect(body.detail).toContain(words);
  });

  it("accepts a query of exactly 512 characters (counted as characters, not bytes)", async () => {
    expect((await search(`q=${encodeURIComponent("é".repeat(512))}`)).status).toBe(200);
  });
});

describe("neighbours", () => {
  it("/tools/search is the search route, not a tool id", async () => {
    const response = await fetch(`${registry.url}/tools/search`);
    expect(response.status).toBe(400);
  });

  it("query/by-keyword stays a plain case-insensitive substring, never a regex", async () => {
    const keyword = async (value: string) =>
      (
        (await (await fetch(`${registry.url}/tools/query/by-keyword?keyword=${encodeURIComponent(value)}`)).json()) as { tool_id: string }[]
      ).map((entry) => entry.tool_id);
    expect(await keyword("COUNTS WORDS")).toEqual(["text-stats"]);
    expect(await keyword("count.*words")).toEqual([]);
    expect(await keyword("(")).toEqual([]);
  });
});
