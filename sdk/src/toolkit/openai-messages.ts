import type { ToolResponse } from "../tool/tool-response.js";
import type { ToolCall } from "./tool-call.js";

/** A tool call in an OpenAI chat completion (`message.tool_calls[i]`): a function call, or a custom tool call. */
export interface OpenAIToolCall {
  id: string;
  type?: string;
  function?: { name: string; arguments: string };
  custom?: { name: string; input: string };
}

/** A `role: "tool"` message answering one tool call. */
export interface OpenAIToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** The executor's input from an assistant message's `tool_calls` (arguments stay raw JSON; the executor parses them). */
export function toolCallsFromOpenAI(toolCalls: readonly OpenAIToolCall[]): ToolCall[] {
  return toolCalls.map((call) => ({
    id: call.id,
    name: call.function?.name ?? call.custom?.name ?? "",
    input: call.function?.arguments ?? call.custom?.input ?? "",
  }));
}

/** Tool messages for the next chat completion request, one per finished call; binary blocks are named, not inlined. */
export function toolMessagesForOpenAI(responses: readonly ToolResponse[]): OpenAIToolMessage[] {
  return responses.map((response) => ({
    role: "tool",
    tool_call_id: response.id,
    content: response.content
      .map((block) =>
        block.type === "text" ? block.text : `[${block.source.mediaType ?? "data"} attachment${block.name ? ` ${block.name}` : ""}]`,
      )
      .join("\n"),
  }));
}
