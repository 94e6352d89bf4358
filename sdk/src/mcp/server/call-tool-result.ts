import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { ToolResultState, type ToolContentBlock } from "../../tool/tool-chunk.js";
import type { ToolResponse } from "../../tool/tool-response.js";

/**
 * A ToolResponse as an MCP tool result: text as text, base64 images and audio as such, other data
 * as an embedded blob resource, URL data as a resource link, and an object result (a registry
 * tool's `metadata.structuredContent`) as `structuredContent` beside its JSON text. Anything but
 * SUCCESS is `isError` (denied and interrupted calls included: the model must not take them for output).
 */
export function toCallToolResult(response: ToolResponse): CallToolResult {
  const content = response.content.map(toMcpContent);
  if (content.length === 0) content.push({ type: "text", text: "(no output)" });
  if (response.state !== ToolResultState.SUCCESS) return { content, isError: true };
  const structured = structuredContentOf(response);
  return structured === undefined ? { content } : { content, structuredContent: structured };
}

/** The object result a successful call carried, if any. */
function structuredContentOf(response: ToolResponse): Record<string, unknown> | undefined {
  const structured = response.metadata["structuredContent"];
  return structured !== null && typeof structured === "object" && !Array.isArray(structured)
    ? (structured as Record<string, unknown>)
    : undefined;
}

/** A refusal or failure that never reached a tool. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

function toMcpContent(block: ToolContentBlock): ContentBlock {
  if (block.type === "text") return { type: "text", text: block.text };
  const { source } = block;
  if (source.type === "url")
    return {
      type: "resource_link",
      uri: source.url,
      name: block.name ?? source.url,
      ...(source.mediaType ? { mimeType: source.mediaType } : {}),
    };
  if (source.mediaType.startsWith("image/")) return { type: "image", data: source.data, mimeType: source.mediaType };
  if (source.mediaType.startsWith("audio/")) return { type: "audio", data: source.data, mimeType: source.mediaType };
  const uri = `agent-tools://result/${encodeURIComponent(block.name ?? block.id ?? "data")}`;
  return { type: "resource", resource: { uri, blob: source.data, mimeType: source.mediaType } };
}
