import { ToolResultState, type DataBlock, type ToolChunk, type ToolContentBlock } from "./tool-chunk.js";
import { ToolError } from "./errors.js";

/** Higher wins when chunks disagree: ERROR beats INTERRUPTED, which beats DENIED (docs/design/permission-model.md#results). */
const STATE_PRIORITY: Partial<Record<ToolResultState, number>> = {
  [ToolResultState.DENIED]: 1,
  [ToolResultState.INTERRUPTED]: 2,
  [ToolResultState.ERROR]: 3,
};

/**
 * The accumulated result of one tool call (`id` = the tool call's id). Chunks are merged as
 * docs/design/permission-model.md#results describes: a block whose id is already known is extended, a new block is
 * appended, and consecutive text blocks merge into one.
 */
export class ToolResponse {
  readonly id: string;
  content: ToolContentBlock[] = [];
  state: ToolResultState = ToolResultState.SUCCESS;
  metadata: Record<string, unknown> = {};

  constructor(id: string) {
    this.id = id;
  }

  static fromChunks(id: string, chunks: Iterable<ToolChunk>): ToolResponse {
    const response = new ToolResponse(id);
    for (const chunk of chunks) response.append(chunk);
    return response;
  }

  append(chunk: ToolChunk): this {
    for (const block of chunk.content) this.appendBlock(block);
    Object.assign(this.metadata, chunk.metadata);
    const incoming = STATE_PRIORITY[chunk.state] ?? 0;
    if (incoming > (STATE_PRIORITY[this.state] ?? 0)) this.state = chunk.state;
    return this;
  }

  /** All text blocks joined: what an LLM usually gets as the tool's output. */
  get text(): string {
    return this.content
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join("\n");
  }

  private appendBlock(block: ToolContentBlock): void {
    const known = block.id === undefined ? undefined : this.content.find((existing) => existing.id === block.id);
    if (known) return extendBlock(known, block);
    const last = this.content.at(-1);
    if (last?.type === "text" && block.type === "text") {
      last.text += block.text;
      return;
    }
    this.content.push(structuredClone(block));
  }
}

function extendBlock(known: ToolContentBlock, block: ToolContentBlock): void {
  if (known.type === "text" && block.type === "text") {
    known.text += block.text;
    return;
  }
  if (known.type === "data" && block.type === "data") return extendData(known, block);
  throw new ToolError(
    "TOOL_CHUNK_MISMATCH",
    `A chunk continues block ${known.id} with a ${block.type} block, but it ` +
      `is a ${known.type} block. Give blocks of different types different ids.`,
  );
}

function extendData(known: DataBlock, block: DataBlock): void {
  if (known.source.type !== "base64" || block.source.type !== "base64") {
    throw new ToolError(
      "TOOL_CHUNK_MISMATCH",
      `Data block ${known.id} is a URL and cannot be streamed in pieces. Send a URL block once, or stream base64 data.`,
    );
  }
  const bytes = Buffer.concat([Buffer.from(known.source.data, "base64"), Buffer.from(block.source.data, "base64")]);
  known.source = { ...known.source, data: bytes.toString("base64") };
}
