import OpenAI from "openai";
import type { ToolRecord } from "../registry-client/tool-record.js";
import { buildFunctionCatalog } from "./function-definitions.js";
import {
  InvalidToolArgumentsError,
  MissingOpenAIKeyError,
  NoSearchCandidatesError,
  NoToolCallError,
  OpenAIRequestError,
  UnknownFunctionNameError,
} from "./search-errors.js";
import { buildUserMessage } from "./user-message.js";

export interface OpenAISearchOptions {
  /** Default: env `OPENAI_API_KEY`. */
  openaiApiKey?: string;
  /** Any OpenAI-compatible server, e.g. `http://127.0.0.1:8080/v1`. Default: env `OPENAI_BASE_URL`, else OpenAI. */
  openaiBaseUrl?: string;
  /** Default `gpt-4o-mini`, as the Python SDK (docs/design/compatibility.md#search-request). */
  model?: string;
  /** Retries of 408/409/429/5xx and connection failures (the openai package's default is 2). */
  openaiMaxRetries?: number;
  /** Per-request timeout in ms (the openai package's default is 10 minutes). */
  openaiTimeoutMs?: number;
}

/** The model's pick: a candidate's tool id and the arguments it wrote for that tool. */
export interface ToolSelection {
  toolId: string;
  arguments: Record<string, unknown>;
}

export const DEFAULT_SEARCH_MODEL = "gpt-4o-mini";

/**
 * Asks an OpenAI-compatible chat model to pick one of the candidate tools, with the Python SDK's
 * request: one function per tool, the prompt (plus input JSON) as the only message, no system
 * prompt, `tool_choice: "required"`; the first tool call is the answer.
 */
export class OpenAIToolSelector {
  readonly model: string;
  private client: OpenAI | undefined;

  constructor(private readonly options: OpenAISearchOptions = {}) {
    this.model = options.model ?? DEFAULT_SEARCH_MODEL;
  }

  /** Fails fast (before any candidate is gathered) when no API key is configured. */
  assertConfigured(): void {
    this.openai();
  }

  async select(prompt: string, candidates: readonly ToolRecord[], input?: Record<string, unknown>): Promise<ToolSelection> {
    const openai = this.openai();
    if (candidates.length === 0) throw new NoSearchCandidatesError();
    const { definitions, toolIdByName } = buildFunctionCatalog(candidates);
    let completion: OpenAI.Chat.ChatCompletion;
    try {
      // Key order as the Python client sends it.
      completion = await openai.chat.completions.create({
        messages: [{ role: "user", content: buildUserMessage(prompt, input) }],
        model: this.model,
        tool_choice: "required",
        tools: definitions,
      });
    } catch (error) {
      if (error instanceof OpenAI.APIError) throw new OpenAIRequestError(openai.baseURL, error.status, error.message, error);
      throw error;
    }
    const message = completion.choices?.[0]?.message;
    const call = message?.tool_calls?.[0];
    if (call === undefined || call.type !== "function") throw new NoToolCallError(this.model, message?.content);
    const toolId = toolIdByName.get(call.function.name);
    if (toolId === undefined) throw new UnknownFunctionNameError(call.function.name, [...toolIdByName.keys()]);
    return { toolId, arguments: parseArguments(toolId, call.function.arguments) };
  }

  private openai(): OpenAI {
    if (this.client) return this.client;
    const apiKey = this.options.openaiApiKey ?? globalThis.process?.env?.OPENAI_API_KEY;
    if (!apiKey) throw new MissingOpenAIKeyError();
    this.client = new OpenAI({
      apiKey,
      ...(this.options.openaiBaseUrl === undefined ? {} : { baseURL: this.options.openaiBaseUrl }),
      ...(this.options.openaiMaxRetries === undefined ? {} : { maxRetries: this.options.openaiMaxRetries }),
      ...(this.options.openaiTimeoutMs === undefined ? {} : { timeout: this.options.openaiTimeoutMs }),
    });
    return this.client;
  }
}

/** `json.loads(function.arguments)`, which must give an object (the tool's input). */
function parseArguments(toolId: string, raw: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new InvalidToolArgumentsError(toolId, raw, error instanceof Error ? error.message : String(error), error);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new InvalidToolArgumentsError(
      toolId,
      raw,
      `got ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed}`,
    );
  }
  return parsed as Record<string, unknown>;
}
