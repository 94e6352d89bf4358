import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ExternalTool,
  FunctionTool,
  PermissionEngine,
  Toolkit,
  toolCallsFromOpenAI,
  toolMessagesForOpenAI,
  type ConfirmationRequest,
  type ConfirmResult,
} from "@agent-tools/sdk";
import { startFakeOpenAI, type FakeOpenAI } from "../../support/fake-openai.js";
import { addTool } from "../permission/support/add-tool.js";

let llm: FakeOpenAI;
beforeAll(async () => {
  llm = await startFakeOpenAI();
});
afterAll(async () => {
  await llm?.close();
});

// The agent loop of docs/permissions.md, against a local OpenAI-compatible server with scripted replies.
describe("an agent loop driving the executor", () => {
  it("runs tool calls, asks the user, and feeds the results back to the model", async () => {
    const add = addTool();
    const toolkit = new Toolkit({ tools: [add], engine: new PermissionEngine() });
    const executor = toolkit.createExecutor();
    const asked: ConfirmationRequest[] = [];
    const askTheUser = async (requests: ConfirmationRequest[]): Promise<ConfirmResult[]> => {
      asked.push(...requests);
      return requests.map((request) => ({ toolCallId: request.id, confirmed: true, rules: request.suggestions }));
    };

    llm.reply(
      { toolCall: { name: "add", arguments: { a: 20, b: 22 } } },
      { toolCall: { name: "add", arguments: { a: 1, b: 1 } } },
      { text: "42 and 2" },
    );
    const openai = new OpenAI({ baseURL: llm.baseUrl, apiKey: "test-key" });
    const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What is 20 + 22, and 1 + 1?" }];
    for (;;) {
      const reply = (await openai.chat.completions.create({ model: "gpt-4.1-mini", messages, tools: toolkit.getSchemas() })).choices[0]!
        .message;
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      const responses = await executor.runToCompletion(toolCallsFromOpenAI(reply.tool_calls), { confirm: askTheUser });
      messages.push(...toolMessagesForOpenAI(responses));
    }

    expect(asked.map((request) => request.input)).toEqual([{ a: 20, b: 22 }]); // the second call was allowed by the remembered rule
    const toolMessages = messages.filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => message.content)).toEqual(["42", "2"]);
    expect(llm.requests[0]!.body.tools).toEqual(toolkit.getSchemas());
    expect(llm.requests[2]!.body.messages.at(-1)).toMatchObject({ role: "tool", content: "2" });
  });

  it("runToCompletion refuses unanswered calls and fails external calls without an executor", async () => {
    const approval = new ExternalTool({ name: "Approve", description: "Human approval.", inputSchema: { type: "object", properties: {} } });
    const add = new FunctionTool(() => 1, { name: "one" });
    const executor = new Toolkit({ tools: [approval, add] }).createExecutor();
    const responses = await executor.runToCompletion(
      [
        { id: "a", name: "Approve", input: {} },
        { id: "o", name: "one", input: {} },
      ],
      { confirm: async () => [] },
    );
    expect(responses.map((response) => [response.id, response.state])).toEqual([
      ["a", "error"],
      ["o", "denied"],
    ]);
    expect(responses[0]!.text).toBe('No external executor is configured for tool "Approve".');
  });

  it("runToCompletion without handlers runs what needs no answer and refuses the rest", async () => {
    const add = new FunctionTool(() => 1, { name: "one" });
    const allowed = new FunctionTool(() => 2, { name: "two" });
    const executor = new Toolkit({ tools: [add, allowed], engine: new PermissionEngine({ allow: ["two"] }) }).createExecutor();
    const responses = await executor.runToCompletion([
      { id: "o", name: "one", input: {} },
      { id: "t", name: "two", input: {} },
    ]);
    expect(responses.map((response) => [response.id, response.state, response.text])).toEqual([
      ["o", "denied", expect.any(String)],
      ["t", "success", "2"],
    ]);
  });
});
