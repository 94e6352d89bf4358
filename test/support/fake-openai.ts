/**
 * A local OpenAI-compatible server for tests (`node:http` on 127.0.0.1, free port). It records
 * every request, rejects malformed chat requests the way the real API does (400
 * `invalid_request_error`), and answers with scripted replies, in order:
 *
 *   const llm = await startFakeOpenAI();
 *   llm.reply({ toolCall: { name: "text-stats", arguments: { text: "a b" } } });
 *   const tools = new AgentTools({ toolsDbUrl, openaiBaseUrl: llm.baseUrl, openaiApiKey: "test-key" });
 *   llm.requests[0].body  // the exact JSON the SDK sent
 *
 * With nothing scripted it plays a tiny keyword "model": it calls the function whose name and
 * description share the most words with the prompt, with the prompt's input JSON as arguments.
 *
 * `POST /v1/embeddings` answers the same way: a scripted `{ status, message }` or `{ rawBody }`,
 * else a bag-of-words "model" (each word hashed to one of `dimensions`, default 64, the vector
 * normalised), in which the words of one `synonyms` group count as the same word:
 *
 *   const llm = await startFakeOpenAI({ synonyms: [["car", "automobile"]] });
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The parsed JSON body (undefined when it was not JSON). */
  body: any;
}

export type FakeReply =
  /** A tool call; an object `arguments` is JSON-encoded, a string is sent as is (malformed JSON too). */
  | { toolCall: { name: string; arguments: string | Record<string, unknown> } }
  /** A plain assistant message without tool calls. */
  | { text: string }
  /** An API error: `{"error": {"message", "type"}}` with this status. */
  | { status: number; message: string }
  /** Any body at all, e.g. a response with no `choices`. */
  | { rawBody: unknown; status?: number };

export interface FakeOpenAI {
  /** For `openaiBaseUrl`: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues replies for the next requests (one each). */
  reply(...replies: FakeReply[]): void;
  close(): Promise<void>;
}

const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface FakeOpenAIOptions {
  /** Words the embeddings "model" takes for one another. */
  synonyms?: readonly (readonly string[])[];
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const embed = bagOfWordsEmbedder(options.synonyms ?? []);
  const requests: RecordedRequest[] = [];
  const queue: FakeReply[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = parseJson(text);
      requests.push({ method: request.method ?? "", path: request.url ?? "", headers: request.headers, body });
      if (request.method === "POST" && request.url === "/v1/embeddings") answerEmbeddings(request, response, body, queue.shift(), embed);
      else answer(request, response, body, queue.shift());
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}

function answer(request: IncomingMessage, response: ServerResponse, body: any, scripted: FakeReply | undefined): void {
  if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
    return send(response, 404, apiError(`Unknown route ${request.method} ${request.url}`));
  }
  if (!/^Bearer \S+$/.test(request.headers.authorization ?? "")) {
    return send(response, 401, apiError("You didn't provide an API key.", "invalid_api_key"));
  }
  const invalid = validateChatRequest(body);
  if (invalid) return send(response, 400, apiError(invalid));
  const reply = scripted ?? keywordModel(body);
  if ("status" in reply && "message" in reply) return send(response, reply.status, apiError(reply.message));
  if ("rawBody" in reply) return send(response, reply.status ?? 200, reply.rawBody);
  const message =
    "text" in reply
      ? { role: "assistant", content: reply.text, refusal: null }
      : {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            {
              id: "call_fake_1",
              type: "function",
              function: {
                name: reply.toolCall.name,
                arguments:
                  typeof reply.toolCall.arguments === "string" ? reply.toolCall.arguments : JSON.stringify(reply.toolCall.arguments),
              },
            },
          ],
        };
  send(response, 200, {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: "text" in reply ? "stop" : "tool_calls" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

function answerEmbeddings(
  request: IncomingMessage,
  response: ServerResponse,
  body: any,
  scripted: FakeReply | undefined,
  embed: (text: string, dimensions: number) => number[],
): void {
  if (!/^Bearer \S+$/.test(request.headers.authorization ?? "")) {
    return send(response, 401, apiError("You didn't provide an API key.", "invalid_api_key"));
  }
  if (typeof body !== "object" || body === null) return send(response, 400, apiError("The request body is not valid JSON."));
  if (typeof body.model !== "string" || body.model === "") return send(response, 400, apiError("you must provide a model parameter"));
  const input: unknown[] = typeof body.input === "string" ? [body.input] : Array.isArray(body.input) ? body.input : [];
  if (input.length === 0 || input.length > 2048 || !input.every((text) => typeof text === "string" && text !== "")) {
    return send(response, 400, apiError("'input' must be a non-empty string or an array of 1 to 2048 non-empty strings"));
  }
  if (scripted !== undefined && "status" in scripted && "message" in scripted)
    return send(response, scripted.status, apiError(scripted.message));
  if (scripted !== undefined && "rawBody" in scripted) return send(response, scripted.status ?? 200, scripted.rawBody);
  const dimensions = typeof body.dimensions === "number" ? body.dimensions : 64;
  send(response, 200, {
    object: "list",
    data: (input as string[]).map((text, index) => ({ object: "embedding", index, embedding: embed(text, dimensions) })),
    model: body.model,
    usage: { prompt_tokens: 1, total_tokens: 1 },
  });
}

/** Each word (its synonym group's first word, a plural's singular) hashed to one dimension; the vector normalised. */
function bagOfWordsEmbedder(synonyms: readonly (readonly string[])[]): (text: string, dimensions: number) => number[] {
  const canonical = new Map(synonyms.flatMap((group) => group.map((word) => [word, group[0]!] as const)));
  return (text, dimensions) => {
    const vector = new Array<number>(dimensions).fill(0);
    for (const raw of words(text)) {
      const word = canonical.get(raw) ?? canonical.get(raw.replace(/s$/, "")) ?? raw.replace(/s$/, "");
      let hash = 2166136261;
      for (const char of word) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
      const at = hash % dimensions;
      vector[at] = vector[at]! + 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
}

/** The checks the real API applies to what this SDK sends; the first failure, or undefined. */
function validateChatRequest(body: any): string | undefined {
  if (typeof body !== "object" || body === null) return "The request body is not valid JSON.";
  if (typeof body.model !== "string" || body.model === "") return "you must provide a model parameter";
  if (!Array.isArray(body.messages) || body.messages.length === 0) return "'messages' must be a non-empty array";
  for (const message of body.messages) {
    if (!["system", "user", "assistant", "tool", "developer"].includes(message?.role)) return `invalid role: ${message?.role}`;
    // As the real API: an assistant turn that only calls tools may carry `content: null`.
    const toolCallsOnly = message.role === "assistant" && Array.isArray(message.tool_calls) && message.content === null;
    if (typeof message.content !== "string" && !toolCallsOnly) return "message content must be a string";
  }
  if (body.tools !== undefined) {
    if (!Array.isArray(body.tools) || body.tools.length === 0) return "'tools' must be a non-empty array";
    if (body.tools.length > 128) return "'tools': array too long; at most 128 tools";
    const names = new Set<string>();
    for (const tool of body.tools) {
      if (tool?.type !== "function" || typeof tool.function !== "object") return "each tool must be {type: 'function', function: {...}}";
      if (!FUNCTION_NAME.test(tool.function.name ?? "")) return `Invalid 'tools[].function.name': '${tool.function.name}'`;
      if (names.has(tool.function.name)) return `Duplicate function name: '${tool.function.name}'`;
      names.add(tool.function.name);
      if (tool.function.description !== undefined && typeof tool.function.description !== "string") return "description must be a string";
      const parameters = tool.function.parameters;
      if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters))
        return "parameters must be a JSON Schema object";
    }
  }
  if (body.tool_choice !== undefined && body.tools === undefined) return "'tool_choice' is only allowed when 'tools' are specified";
  return undefined;
}

/** The stand-in model: most shared words between the prompt and a function's name + description. */
function keywordModel(body: any): FakeReply {
  const content: string = body.messages.at(-1).content;
  const [prompt = "", inputJson] = content.split("\n\nInput data (JSON):\n");
  const promptWords = new Set(words(prompt));
  let best: { name: string; overlap: number } | undefined;
  for (const tool of body.tools ?? []) {
    const overlap = words(`${tool.function.name} ${tool.function.description ?? ""}`).filter((word) => promptWords.has(word)).length;
    if (best === undefined || overlap > best.overlap) best = { name: tool.function.name, overlap };
  }
  if (best === undefined) return { text: "I have no tools to call." };
  return { toolCall: { name: best.name, arguments: inputJson === undefined ? {} : (JSON.parse(inputJson) as Record<string, unknown>) } };
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2);
}

function apiError(message: string, code: string | null = null): unknown {
  return { error: { message, type: "invalid_request_error", param: null, code } };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
