// searchTool / searchAndExecuteTool end to end: a real registry, real python3 and gcc-built tools,
// and a local OpenAI-compatible server that records the exact request.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  AgentTools,
  InvalidToolArgumentsError,
  MissingOpenAIKeyError,
  NoSearchCandidatesError,
  NoToolCallError,
  OpenAIRequestError,
  UnknownFunctionNameError,
  type AgentToolsOptions,
} from "@agent-tools/sdk";
import { fixtureBundle, readFixtureSpec } from "../../support/bundles.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "../../functions/search/search-bundles.js";

let registry: TestRegistry;
let llm: FakeOpenAI;
let cacheDir: string;
const savedKey = process.env.OPENAI_API_KEY;
const opened: AgentTools[] = [];

const textStatsSpec = readFixtureSpec("text-stats") as any;
const incrementSpec = readFixtureSpec("binary-increment") as any;

function agentTools(options: AgentToolsOptions = {}): AgentTools {
  const tools = new AgentTools({
    toolsDbUrl: registry.url,
    cacheDir,
    openaiBaseUrl: llm.baseUrl,
    openaiApiKey: "test-key",
    openaiMaxRetries: 0,
    ...options,
  });
  opened.push(tools);
  return tools;
}

beforeAll(async () => {
  delete process.env.OPENAI_API_KEY;
  [registry, llm, cacheDir] = await Promise.all([startTestRegistry(), startFakeOpenAI(), mkdtemp(join(tmpdir(), "agent-tools-search-"))]);
  await uploadOrThrow(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle);
  await uploadOrThrow(registry.url, registry.token, (await fixtureBundle("binary-increment")).bundle);
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({ tool_id: "agentspace.echo.v1", tool_search_description: "Echoes its input back", tool_type: "debug" }),
  );
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((tools) => tools.close()));
  llm.requests.length = 0;
});

afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await Promise.all([registry?.close(), llm?.close(), cacheDir && rm(cacheDir, { recursive: true, force: true })]);
});

describe("searchTool over added tools", () => {
  it("sends exactly the original's request and returns the chosen tool id", async () => {
    const tools = agentTools();
    await tools.add("text-stats");
    await tools.add("binary-increment");
    llm.reply({ toolCall: { name: "text-stats", arguments: { text: "ignored" } } });

    expect(await tools.searchTool("how many words are in this text?")).toBe("text-stats");

    expect(llm.requests).toHaveLength(1);
    const [request] = llm.requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.headers.authorization).toBe("Bearer test-key");
    expect(Object.keys(request!.body)).toEqual(["messages", "model", "tool_choice", "tools"]);
    expect(request!.body).toEqual({
      messages: [{ role: "user", content: "how many words are in this text?" }],
      model: "gpt-4o-mini",
      tool_choice: "required",
      tools: [
        {
          type: "function",
          function: {
            name: "text-stats",
            description: "Counts words in a text and returns the most frequent ones Tags: text, nlp, statistics.",
            parameters: textStatsSpec.tool_api_spec.entrypoints.execute.input,
          },
        },
        {
          type: "function",
          function: {
            name: "binary-increment",
            description: "Increments a number by a configurable step Tags: math, binary, go.",
            parameters: incrementSpec.tool_api_spec.entrypoints.execute.input,
          },
        },
      ],
    });
  });

  it("maps a sanitised name back to the tool id and uses the configured model", async () => {
    const tools = agentTools({ model: "local-model" });
    await tools.add("agentspace.echo.v1");
    llm.reply({ toolCall: { name: "agentspace_echo_v1", arguments: {} } });
    expect(await tools.searchTool("echo this")).toBe("agentspace.echo.v1");
    expect(llm.requests[0]!.body.model).toBe("local-model");
    expect(llm.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: { name: "agentspace_echo_v1", description: "Echoes its input back", parameters: { type: "object", properties: {} } },
      },
    ]);
  });

  it("falls back to OPENAI_API_KEY from the environment", async () => {
    process.env.OPENAI_API_KEY = "env-key";
    try {
      const tools = agentTools({ openaiApiKey: undefined });
      await tools.add("text-stats");
      llm.reply({ toolCall: { name: "text-stats", arguments: {} } });
      expect(await tools.searchTool("count words")).toBe("text-stats");
      expect(llm.requests[0]!.headers.authorization).toBe("Bearer env-key");
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
  });
});

describe("searchAndExecuteTool", () => {
  it("runs the chosen Python tool with the model's arguments (the issue's example)", async () => {
    const tools = agentTools();
    await tools.add("text-stats");
    await tools.add("binary-increment");
    llm.reply({ toolCall: { name: "text-stats", arguments: { text: "the cat and the hat" } } });

    const result = await tools.searchAndExecuteTool("count the words in: the cat and the hat", {});

    expect(result).toEqual({ word_count: 5, unique_words: 4, top_words: ["the", "and", "cat"] });
    expect(llm.requests[0]!.body.messages).toEqual([{ role: "user", content: "count the words in: the cat and the hat" }]);
  });

  it("sends the input as JSON, keeps tool_model out of the request and hands it to the tool", async () => {
    const tools = agentTools();
    await tools.add("agentspace.echo.v1");
    const toolModel = { llm_block_id: "openai:gpt-4o", llm_parameters: { temperature: 0 } };
    const input = { text: "a b a", tool_model: toolModel };
    llm.reply({ toolCall: { name: "agentspace_echo_v1", arguments: { message: "from the model" } } });

    const result = await tools.searchAndExecuteTool("echo it", input);

    expect(llm.requests[0]!.body.messages[0].content).toBe('echo it\n\nInput data (JSON):\n{\n  "text": "a b a"\n}');
    expect(result).toEqual({ tool_id: "agentspace.echo.v1", received: { message: "from the model", tool_model: toolModel } });
    expect(input).toEqual({ text: "a b a", tool_model: toolModel });
  });

  it("works with a stand-in model that picks by keywords and passes the input on", async () => {
    const tools = agentTools();
    await tools.add("binary-increment");
    await tools.add("text-stats");
    // Nothing scripted: the fake's keyword model chooses text-stats and sends the input JSON back.
    expect(await tools.searchAndExecuteTool("count the words in this text", { text: "a b a" })).toEqual({
      word_count: 3,
      unique_words: 2,
      top_words: ["a", "b"],
    });
  });

  it("rejects an input that is not a plain object", async () => {
    const tools = agentTools();
    await expect(tools.searchAndExecuteTool("count", [] as unknown as Record<string, unknown>)).rejects.toThrow(
      "searchAndExecuteTool() input must be a plain object (or {}), got an array.",
    );
  });

  it("drops a falsy tool_model as the original did, and sends no input block when only tool_model was given", async () => {
    const tools = agentTools();
    await tools.add("agentspace.echo.v1");
    llm.reply({ toolCall: { name: "agentspace_echo_v1", arguments: { n: 1 } } });
    const result = await tools.searchAndExecuteTool("echo it", { tool_model: {} });
    expect(llm.requests[0]!.body.messages[0].content).toBe("echo it");
    expect(result).toEqual({ tool_id: "agentspace.echo.v1", received: { n: 1 } });
  });
});

describe("candidates from the registry's search", () => {
  it("offers the registry's ranked matches without any add", async () => {
    const tools = agentTools();
    llm.reply({ toolCall: { name: "binary-increment", arguments: { value: 41 } } });

    expect(await tools.searchTool("increment 41", { from: "registry", limit: 20 })).toBe("binary-increment");

    const ranked = (await (await fetch(`${registry.url}/tools/search?q=increment+41&limit=20`)).json()) as {
      results: { tool_id: string }[];
    };
    const offered = llm.requests[0]!.body.tools.map((tool: any) => tool.function.name);
    expect(offered).toEqual(ranked.results.map((result) => result.tool_id));
    expect(offered[0]).toBe("binary-increment");
    expect(llm.requests[0]!.body.tools[0].function.parameters).toEqual(incrementSpec.tool_api_spec.entrypoints.execute.input);
    expect(tools.list()).toEqual([]);
  });

  it("adds and runs the chosen binary tool (compiled with gcc)", async () => {
    const tools = agentTools();
    llm.reply({ toolCall: { name: "binary-increment", arguments: { value: 41 } } });
    expect(await tools.searchAndExecuteTool("increment 41", { value: 41 }, { from: "registry" })).toEqual({
      result: 42,
      status: "success",
    });
    expect(tools.list().map((tool) => tool.toolId)).toEqual(["binary-increment"]);
  });

  it("passes type and tag filters to the registry", async () => {
    const tools = agentTools();
    llm.reply({ toolCall: { name: "text-stats", arguments: {} } });
    await tools.searchTool("words", { from: "registry", tag: "nlp" });
    expect(llm.requests[0]!.body.tools.map((tool: any) => tool.function.name)).toEqual(["text-stats"]);
    await expect(tools.searchTool("words", { from: "registry", type: "no-such-type" })).rejects.toThrow(NoSearchCandidatesError);
  });
});

describe("errors", () => {
  it("no API key: the original's message, before anything else happens", async () => {
    const tools = agentTools({ openaiApiKey: undefined });
    const error = await tools.searchTool("count words").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MissingOpenAIKeyError);
    expect((error as Error).message).toMatch(
      /^openai_api_key was not provided to AgentTools\. Pass it in the constructor to use search_tool \/ search_and_execute_tool\./,
    );
    expect((error as MissingOpenAIKeyError).code).toBe("SEARCH_NO_API_KEY");
    expect(llm.requests).toHaveLength(0);
  });

  it("no candidates: nothing added", async () => {
    const tools = agentTools();
    await expect(tools.searchTool("count words")).rejects.toThrow(
      new NoSearchCandidatesError("No tools available. Add tools with tools.add() before searching."),
    );
    await expect(tools.searchAndExecuteTool("count words", { text: "a" })).rejects.toBeInstanceOf(NoSearchCandidatesError);
    expect(llm.requests).toHaveLength(0);
  });

  it("no candidates: the registry found nothing", async () => {
    const tools = agentTools();
    const error = await tools.searchTool("zzyzx qwxv", { from: "registry" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NoSearchCandidatesError);
    expect((error as Error).message).toContain("the registry's search found no tool");
  });

  it("the model names an unknown function", async () => {
    const tools = agentTools();
    await tools.add("text-stats");
    llm.reply({ toolCall: { name: "word-counter", arguments: {} } });
    const error = await tools.searchTool("count").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnknownFunctionNameError);
    expect((error as Error).message).toMatch(/^OpenAI returned unknown function name: 'word-counter'/);
  });

  it("the model writes arguments that are not a JSON object", async () => {
    const tools = agentTools();
    await tools.add("text-stats");
    llm.reply({ toolCall: { name: "text-stats", arguments: '{"text": "a b' } }, { toolCall: { name: "text-stats", arguments: "[1, 2]" } });
    const broken = await tools.searchAndExecuteTool("count", { text: "a b" }).catch((caught: unknown) => caught);
    expect(broken).toBeInstanceOf(InvalidToolArgumentsError);
    expect((broken as InvalidToolArgumentsError).rawArguments).toBe('{"text": "a b');
    expect((broken as InvalidToolArgumentsError).toolId).toBe("text-stats");
    await expect(tools.searchAndExecuteTool("count", { text: "a b" })).rejects.toThrow(/not a JSON object \(got an array\)/);
  });

  it("the model answers without a tool call", async () => {
    const tools = agentTools();
    await tools.add("text-stats");
    llm.reply({ text: "I would count them by hand." }, { rawBody: { id: "chatcmpl-empty", object: "chat.completion", choices: [] } });
    await expect(tools.searchTool("count")).rejects.toThrow(/returned no tool call.*it answered: "I would count them by hand\."/);
    await expect(tools.searchTool("count")).rejects.toThrow(NoToolCallError);
  });

  it.each([
    [401, "Incorrect API key provided: test-key."],
    [429, "Rate limit reached for gpt-4o-mini."],
    [500, "The server had an error while processing your request."],
  ])("the API answers %i: status and message are kept", async (status, message) => {
    const tools = agentTools();
    await tools.add("text-stats");
    llm.reply({ status, message });
    const error = await tools.searchTool("count").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAIRequestError);
    expect((error as OpenAIRequestError).status).toBe(status);
    expect((error as Error).message).toContain(`answered HTTP ${status}`);
    expect((error as Error).message).toContain(message);
  });

  it("the API cannot be reached", async () => {
    const closed = await startFakeOpenAI();
    await closed.close();
    const tools = agentTools({ openaiBaseUrl: closed.baseUrl });
    await tools.add("text-stats");
    const error = await tools.searchTool("count").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAIRequestError);
    expect((error as OpenAIRequestError).status).toBeUndefined();
    expect((error as Error).message).toContain("could not be reached");
  });
});
