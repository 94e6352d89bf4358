import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** What `boundedResult` returns: the result within the limit, and how large the server's was. */
export interface BoundedResult {
  result: CallToolResult;
  /** The size of the server's content and structured content, as UTF-8 JSON. */
  bytes: number;
  truncated: boolean;
}

const byteSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "", "utf8");

/**
 * A tool result cut to `limit` bytes (docs/mcp.md#limits), so one call cannot flood the model's
 * context: blocks are kept in order while they fit, the first text block that does not fit is cut,
 * other blocks past the limit (images, resources) and structured content that does not fit are
 * dropped, and a note says what happened and which setting raises the limit.
 */
export function boundedResult(result: CallToolResult, limit: number, server: string): BoundedResult {
  const bytes = byteSize(result.content) + (result.structuredContent === undefined ? 0 : byteSize(result.structuredContent));
  if (bytes <= limit) return { result, bytes, truncated: false };
  let budget = limit;
  const content: CallToolResult["content"] = [];
  for (const block of result.content) {
    const size = byteSize(block);
    if (size <= budget) {
      content.push(block);
      budget -= size;
    } else if (block.type === "text" && budget > 0) {
      content.push({
        type: "text",
        text: Buffer.from(block.text, "utf8")
          .subarray(0, budget)
          .toString("utf8")
          .replace(/\uFFFD$/, ""),
      });
      budget = 0;
    }
  }
  const structured =
    result.structuredContent !== undefined && byteSize(result.structuredContent) <= budget ? result.structuredContent : undefined;
  content.push({
    type: "text",
    text:
      `[The result was truncated: MCP server "${server}" sent ${bytes} bytes, more ` +
      `than the ${limit} this client passes on (maxResultBytes in the server's config).]`,
  });
  const { structuredContent: _dropped, ...rest } = result;
  return { result: { ...rest, content, ...(structured === undefined ? {} : { structuredContent: structured }) }, bytes, truncated: true };
}
