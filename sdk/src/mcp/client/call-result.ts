import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { ToolChunk, ToolResultState, type ToolContentBlock } from "../../tool/tool-chunk.js";

/**
 * One MCP tool result as one final ToolChunk: text stays text, images and audio become base64 data
 * blocks, embedded resources become text or data named by their URI, resource links become URL
 * data blocks. `structuredContent` goes into `metadata.structuredContent` and, when the server sent
 * no content to go with it, also into a JSON text block so the LLM sees it. `isError` makes the chunk
 * an ERROR.
 */
export function toToolChunk(result: CallToolResult, metadata: Record<string, unknown>): ToolChunk {
  const content = result.content.map(toContentBlock);
  const structured = result.structuredContent;
  if (structured !== undefined && content.length === 0) content.push({ type: "text", text: JSON.stringify(structured) });
  return new ToolChunk({
    content,
    state: result.isError === true ? ToolResultState.ERROR : ToolResultState.SUCCESS,
    metadata: structured === undefined ? metadata : { ...metadata, structuredContent: structured },
  });
}

function toContentBlock(block: ContentBlock): ToolContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
    case "audio":
      return { type: "data", source: { type: "base64", mediaType: block.mimeType, data: block.data } };
    case "resource": {
      const { resource } = block;
      if ("text" in resource) return { type: "text", text: resource.text };
      return {
        type: "data",
        name: resource.uri,
        source: { type: "base64", mediaType: resource.mimeType ?? "application/octet-stream", data: resource.blob },
      };
    }
    case "resource_link":
      return { type: "data", name: block.name, source: { type: "url", url: block.uri, mediaType: block.mimeType } };
  }
}
