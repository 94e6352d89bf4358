// Deferred loading: an agent starts with SearchTools and AddTool only, finds a registry tool,
// adds it (through the permission engine) and calls it, in a Toolkit loop driven by the local
// OpenAI-compatible server with scripted replies, against a real registry.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  addSearchMetaTools,
  AgentTools,
  PermissionEngine,
  Toolkit,
  toolCallsFromOpenAI,
  toolMessagesForOpenAI,
  type ConfirmationRequest,
  type ConfirmResult,
} from "@agent-tools/sdk";
import { fixtureBundle } from "../../support/bundles.js";
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from "../../support/fake-openai.js";
import { startTestRegistry, type TestRegistry } from "../../support/registry.js";
import { echoToolBundle, uploadOrThrow } from "../../functions/search/search-bundles.js";

let registry: TestRegistry;
let llm: FakeOpenAI;
let cacheDir: string;
const opened: AgentTools[] = [];

beforeAll(async () => {
  [registry, llm, cacheDir] = await Promise.all([startTestRegistry(), startFakeOpenAI(), mkdtemp(join(tmpdir(), "agent-tools-meta-"))]);
  await uploadOrThrow(registry.url, registry.token, (await fixtureBundle("text-stats")).bundle);
  await uploadOrThrow(
    registry.url,
    registry.token,
    echoToolBundle({ tool_id: "image-resizer", tool_search_description: "Resizes pictures to a width and height" }),
  );
});

afterAll(async () => {
  await Promise.all(opened.map((tools) => tools.close()));
  await Promise.all([registry?.close(), llm?.close(), cacheDir ? rm(cacheDir, { recursive: true, force: true }) : undefined]);
});

/** Runs the loop of docs/permissions.md until the model answers in text; `confirm` answers each ask. */
async function runAgent(prompt: string, replies: FakeReply[], confirm: (request: ConfirmationRequest) => boolean) {
  const tools = new AgentTools({ toolsDbUrl: registry.url, cacheDir });
  opened.push(tools);
  const toolkit = new Toolkit({ engine: new PermissionEngine() });
  addSearchMetaTools(tools, toolkit);
  const executor = toolkit.createExecutor();
  const asked: ConfirmationRequest[] = [];
  const answer = async (requests: ConfirmationRequest[]): Promise<ConfirmResult[]> => {
    asked.push(...requests);
    return requests.map((request) => ({
      toolCallId: request.id,
      confirmed: confirm(request),
      ...(confirm(request) ? { rules: request.suggestions } : {}),
    }));
  };
  const first = llm.requests.length;
  llm.reply(...replies);
  const openai = new OpenAI({ baseURL: llm.baseUrl, apiKey: "test-key" });
  const messages: ChatCompletionMessageParam[] = [{ role: "user", content: prompt }];
  for (;;) {
    const reply = (await openai.chat.completions.create({ model: "gpt-4.1-mini", messages, tools: toolkit.getSchemas() })).choices[0]!
      .message;
    messages.push(reply);
    if (!reply.tool_calls?.length) break;
    messages.push(...toolMessagesForOpenAI(await executor.runToCompletion(toolCallsFromOpenAI(reply.tool_calls), { confirm: answer })));
  }
  const offered = llm.requests
    .slice(first)
    .map((request) => ((request.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name));
  const results = messages.filter((message) => message.role === "tool").map((message) => String(message.content));
  return { asked, offered, results, toolkit };
}

it("finds a tool, adds it once the user allows, and calls it in the same Toolkit", async () => {
  const { asked, offered, results } = await runAgent(
    "How many words are in 'the cat and the hat'?",
    [
      { toolCall: { name: "SearchTools", arguments: { query: "count words in a text" } } },
      { toolCall: { name: "AddTool", arguments: { tool_id: "text-stats" } } },
      { toolCall: { name: "text-stats", arguments: { text: "the cat and the hat" } } },
      { text: "5 words" },
    ],
    () => true,
  );
  // Two tools to start with; the added tool is offered from the next turn on.
  expect(offered[0]).toEqual(["SearchTools", "AddTool"]);
  expect(offered[2]).toEqual(["SearchTools", "AddTool", "text-stats"]);

  const found = JSON.parse(results[0]!) as { tools: { tool_id: string; input_schema: { properties: object } }[] };
  expect(found.tools.length).toBeLessThanOrEqual(5);
  expect(found.tools[0]!.tool_id).toBe("text-stats");
  expect(found.tools[0]!.input_schema.properties).toHaveProperty("text");
  expect(JSON.parse(results[1]!)).toMatchObject({ added: "text-stats", name: "text-stats" });
  expect(JSON.parse(results[2]!)).toMatchObject({ word_count: 5 });

  // SearchTools never asks; AddTool and the added (third-party) tool do.
  expect(asked.map((request) => request.name)).toEqual(["AddTool", "text-stats"]);
});

it("leaves a tool out of the Toolkit when the user refuses to add it", async () => {
  const { asked, offered, results, toolkit } = await runAgent(
    "Resize my picture",
    [
      { toolCall: { name: "SearchTools", arguments: { query: "resize a picture" } } },
      { toolCall: { name: "AddTool", arguments: { tool_id: "image-resizer" } } },
      { text: "I could not add it." },
    ],
    (request) => request.name !== "AddTool",
  );
  expect(JSON.parse(results[0]!).tools[0].tool_id).toBe("image-resizer");
  expect(asked.map((request) => request.name)).toEqual(["AddTool"]);
  expect(offered.at(-1)).toEqual(["SearchTools", "AddTool"]);
  expect(toolkit.getTool("image-resizer")).toBeUndefined();
});

it("answers an unknown tool id and an empty search as tool errors the model can read, not a crash", async () => {
  const { results, toolkit } = await runAgent(
    "Do something",
    [
      { toolCall: { name: "SearchTools", arguments: { query: "zzzqqq nothing like this" } } },
      { toolCall: { name: "AddTool", arguments: { tool_id: "no-such-tool" } } },
      { toolCall: { name: "SearchTools", arguments: { query: "" } } },
      { text: "Nothing found." },
    ],
    () => true,
  );
  expect(results[0]).toMatch(/No registry tool matches/);
  expect(results[1]).toMatch(/no-such-tool/);
  expect(results[2]).toMatch(/query/);
  expect(toolkit.getTool("no-such-tool")).toBeUndefined();
});

it("gets a tool for each ask of one query, and names a tool's clones in its result", async () => {
  const upload = (tool_id: string, tool_search_description: string) =>
    uploadOrThrow(registry.url, registry.token, echoToolBundle({ tool_id, tool_search_description }));
  // Validators that the whole query matches better than the one tool for its second ask.
  for (const [id, description] of [
    ["email-checker", "Validates the syntax, domain and mailbox of email addresses"],
    ["email-syntax-checker", "Validates the syntax of email addresses"],
    ["email-mailbox-checker", "Validates the domain and mailbox of email addresses"],
    ["email-typo-checker", "Validates the syntax of email addresses and fixes their typos"],
    ["email-bulk-checker", "Validates the mailboxes of many email addresses"],
    ["email-bulk-checker-copy", "Validates the mailboxes of many email addresses"],
    ["order-fetcher", "Fetches an order of a shop by its number"],
  ]) {
    await upload(id!, description!);
  }
  const { results } = await runAgent(
    "Check these addresses and get order 67890",
    [
      {
        toolCall: {
          name: "SearchTools",
          arguments: { query: "validate these email addresses, checking their syntax, domains and mailboxes, then fetch order 67890" },
        },
      },
      { text: "Found them." },
    ],
    () => true,
  );
  const { tools } = JSON.parse(results[0]!) as { tools: { tool_id: string; similar_tool_ids?: string[] }[] };
  expect(tools).toHaveLength(5);
  expect(tools[0]!.tool_id).toBe("email-checker");
  expect(tools.map((tool) => tool.tool_id)).toContain("order-fetcher");
  const bulk = tools.find((tool) => tool.tool_id.startsWith("email-bulk-checker"));
  expect([bulk?.tool_id, ...(bulk?.similar_tool_ids ?? [])].sort()).toEqual(["email-bulk-checker", "email-bulk-checker-copy"]);
});
